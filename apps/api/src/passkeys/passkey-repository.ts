import { and, asc, count, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { adminPasskeys } from '../db/schema.ts';

export type PasskeyRow = typeof adminPasskeys.$inferSelect;
export type NewPasskey = Omit<typeof adminPasskeys.$inferInsert, 'createdAt' | 'lastUsedAt'>;

/** Administrators' passkeys, by the allowlist row (e-mail) they belong to. */
export function createPasskeyRepository(db: Database) {
  return {
    async countFor(email: string): Promise<number> {
      const [row] = await db.select({ total: count() }).from(adminPasskeys).where(eq(adminPasskeys.email, email));
      return row?.total ?? 0;
    },

    listFor(email: string): Promise<PasskeyRow[]> {
      return db
        .select()
        .from(adminPasskeys)
        .where(eq(adminPasskeys.email, email))
        .orderBy(asc(adminPasskeys.createdAt));
    },

    /** When each passkey of these addresses was set up and last used, oldest first: for the admin list. */
    summariesFor(emails: string[]) {
      if (emails.length === 0) return Promise.resolve([]);
      return db
        .select({
          email: adminPasskeys.email,
          createdAt: adminPasskeys.createdAt,
          lastUsedAt: adminPasskeys.lastUsedAt,
        })
        .from(adminPasskeys)
        .where(inArray(adminPasskeys.email, emails))
        .orderBy(asc(adminPasskeys.createdAt));
    },

    /** The credential, only when it belongs to this address: another admin's passkey proves nothing here. */
    async find(credentialId: string, email: string): Promise<PasskeyRow | undefined> {
      const [row] = await db
        .select()
        .from(adminPasskeys)
        .where(and(eq(adminPasskeys.credentialId, credentialId), eq(adminPasskeys.email, email)));
      return row;
    },

    /** False when the credential id is already registered (to anyone): it is never moved or overwritten. */
    async insert(passkey: NewPasskey): Promise<boolean> {
      const inserted = await db
        .insert(adminPasskeys)
        .values(passkey)
        .onConflictDoNothing()
        .returning({ id: adminPasskeys.credentialId });
      return inserted.length > 0;
    },

    /**
     * Records a use with the authenticator's new counter. The counter only moves forward (or stays 0 for
     * authenticators that do not count), so two racing requests cannot both use one assertion: the second
     * finds the counter already there and gets false.
     */
    async recordUse(credentialId: string, newCounter: number): Promise<boolean> {
      const updated = await db
        .update(adminPasskeys)
        .set({ counter: newCounter, lastUsedAt: sql`now()` })
        .where(
          and(
            eq(adminPasskeys.credentialId, credentialId),
            or(lt(adminPasskeys.counter, newCounter), and(eq(adminPasskeys.counter, 0), sql`${newCounter} = 0`)),
          ),
        )
        .returning({ id: adminPasskeys.credentialId });
      return updated.length > 0;
    },

    /** Removes every passkey of the address (recovery); returns how many there were. */
    async removeAllFor(email: string): Promise<number> {
      const removed = await db
        .delete(adminPasskeys)
        .where(eq(adminPasskeys.email, email))
        .returning({ id: adminPasskeys.credentialId });
      return removed.length;
    },
  };
}

export type PasskeyRepository = ReturnType<typeof createPasskeyRepository>;
