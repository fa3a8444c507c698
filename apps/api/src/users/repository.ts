import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { createAuditRepository, type AuditEvent } from '../audit/repository.ts';
import type { Database } from '../db/client.ts';
import { accountCleanups, adminPasskeys, users } from '../db/schema.ts';
import { CLEANUP_LEASE_MS, type AccountCleanup } from './account-cleanups.ts';
import { listUsers, type UserListOptions } from './list-query.ts';

export type UserRow = typeof users.$inferSelect;

/** What the company directory keeps on a row it provisions (scim/). */
export type DirectoryFields = Pick<UserRow, 'scimExternalId' | 'managedBy' | 'suspended'>;

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

/**
 * The allowlist row of an address. Every authenticated request runs this: prepared once, it skips rebuilding
 * the SQL each time. Apart from the repository so the allowlist cache can load through it without depending
 * on the repository, whose writes it hears.
 */
export function createFindUserByEmail(db: Database) {
  const byEmail = db
    .select()
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1)
    .prepare('users_find_by_email');
  return async (email: string): Promise<UserRow | undefined> => {
    const [row] = await byEmail.execute({ email });
    return row;
  };
}

/**
 * `onChanged` hears every change this repository writes, once it is written: this process's allowlist cache
 * forgets the row at once, without waiting for the database's change notice to come back to it.
 */
export function createUsersRepository(
  db: Database,
  options: { onChanged?: (email: string) => void } = {},
): UsersRepository {
  const changed = <T>(email: string, result: T): T => {
    options.onChanged?.(email);
    return result;
  };
  const findByEmail = createFindUserByEmail(db);

  return {
    findByEmail,

    list(options = {}) {
      return listUsers(db, options);
    },

    async findByScimId(id) {
      // Not a uuid: no such row (the column's type would refuse the comparison).
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(users).where(eq(users.scimId, id.toLowerCase())).limit(1);
      return row;
    },

    async findByFirebaseUid(uid) {
      const [row] = await db.select().from(users).where(eq(users.firebaseUid, uid)).limit(1);
      return row;
    },

    /**
     * Inserts a row; returns undefined when the e-mail is already on the list (no duplicate, no error). A
     * sign-in account already bound to another row is an error (`users_firebase_uid_idx`), not a duplicate.
     */
    async insert(row) {
      const [inserted] = await db.insert(users).values(row).onConflictDoNothing({ target: users.email }).returning();
      return changed(row.email, inserted);
    },

    async emailsOnList(emails) {
      if (emails.length === 0) return new Set<string>();
      const rows = await db
        .select({ email: users.email })
        .from(users)
        .where(inArray(users.email, [...emails]));
      return new Set(rows.map((row) => row.email));
    },

    async insertMany(rows) {
      if (rows.length === 0) return [];
      return db
        .insert(users)
        .values([...rows])
        .onConflictDoNothing()
        .returning();
    },

    async removeQueuingCleanup(email, requestedBy) {
      const [removed] = await db.delete(users).where(eq(users.email, email)).returning();
      if (!removed) return changed(email, undefined);
      // Leased to the caller, who tries it at once: no other instance takes it up meanwhile.
      const [cleanup] = await db
        .insert(accountCleanups)
        .values({
          email,
          firebaseUid: removed.firebaseUid,
          requestedBy,
          attempts: 1,
          leasedUntil: sql`now() + make_interval(secs => ${CLEANUP_LEASE_MS / 1000})`,
        })
        .returning();
      if (!cleanup) throw new Error(`the clean-up of ${email}'s account was not queued`);
      return changed(email, { row: removed, cleanup });
    },

    async bindSsoSubject(email, firebaseUid, subject) {
      // Only the first link binds: of two first sign-ins at once, one wins and the other is then checked.
      const [bound] = await db
        .update(users)
        .set({ ssoSubject: subject, ssoLinkedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(users.email, email), eq(users.firebaseUid, firebaseUid), isNull(users.ssoSubject)))
        .returning();
      return changed(email, bound);
    },

    async recordAudit(event) {
      await createAuditRepository(db).record(event);
    },

    async remove(email) {
      const [removed] = await db.delete(users).where(eq(users.email, email)).returning();
      return changed(email, removed);
    },

    async update(email, changes) {
      // A row given another sign-in account starts without a company link: the old one was that account's.
      const relinked = changes.firebaseUid === undefined ? {} : { ssoSubject: null, ssoLinkedAt: null };
      const [updated] = await db
        .update(users)
        .set({ ...changes, ...relinked, updatedAt: sql`now()` })
        .where(eq(users.email, email))
        .returning();
      return changed(email, updated);
    },

    /**
     * Runs `work` in one transaction, on a repository bound to it (PGlite has one connection, and the
     * transaction holds it); the changes made there are announced once they are committed, not before.
     */
    async transaction<T>(work: (inTransaction: UsersRepository) => Promise<T>): Promise<T> {
      const touched = new Set<string>();
      const result = await db.transaction((tx) =>
        work(createUsersRepository(tx as unknown as Database, { onChanged: (email) => touched.add(email) })),
      );
      for (const email of touched) options.onChanged?.(email);
      return result;
    },

    /**
     * Locks every admin row until the transaction ends, in one order, so two admins removing each other at
     * once cannot both see "another admin remains" and leave none.
     */
    async lockAdmins(): Promise<string[]> {
      const rows = await db
        .select({ email: users.email, suspended: users.suspended })
        .from(users)
        .where(eq(users.admin, true))
        .orderBy(asc(users.email))
        .for('update');
      // A suspended administrator signs in nowhere: they do not count as one who remains.
      return rows.filter((row) => !row.suspended).map((row) => row.email);
    },

    async passkeyHolders(emails) {
      if (emails.length === 0) return [];
      const rows = await db
        .selectDistinct({ email: adminPasskeys.email })
        .from(adminPasskeys)
        .where(inArray(adminPasskeys.email, emails));
      return rows.map((row) => row.email);
    },
  };
}

/** Who made the row's person an administrator, who approved it, and when (cleared when the role is taken). */
export type AdminGrantFields = Pick<UserRow, 'adminGrantedBy' | 'adminApprovedBy' | 'adminGrantedAt'>;

/** The repository's calls, declared once: `createUsersRepository` is typed by it, transactions included. */
export interface UsersRepository {
  findByEmail(email: string): Promise<UserRow | undefined>;
  list(options?: UserListOptions): ReturnType<typeof listUsers>;
  insert(
    row: {
      email: string;
      admin?: boolean;
      finance?: boolean;
      activated?: boolean;
      registered?: boolean;
      firebaseUid?: string | null;
      createdBy?: string | null;
    } & Partial<DirectoryFields & AdminGrantFields>,
  ): Promise<UserRow | undefined>;
  /** Which of these addresses are on the list: one query for a bulk add. */
  emailsOnList(emails: readonly string[]): Promise<Set<string>>;
  /**
   * Inserts many rows in one statement; answers those written. A row whose address is on the list already,
   * or whose sign-in account another row holds, is left out (not an error): its caller adds it on its own.
   */
  insertMany(rows: readonly Parameters<UsersRepository['insert']>[0][]): Promise<UserRow[]>;
  /** The row behind /scim/v2/Users/<id>. */
  findByScimId(id: string): Promise<UserRow | undefined>;
  findByFirebaseUid(uid: string): Promise<UserRow | undefined>;
  /**
   * Deletes the row and queues the clean-up of its sign-in account (account-cleanups.ts), leased to the
   * caller; call it inside `transaction`, so both happen or neither does.
   */
  removeQueuingCleanup(
    email: string,
    requestedBy: string,
  ): Promise<{ row: UserRow; cleanup: AccountCleanup } | undefined>;
  /**
   * Binds the single sign-on provider's id of the person to the row of `email` held by `firebaseUid`, if none
   * is bound yet; undefined when one is (or the row is gone or held by another account).
   */
  bindSsoSubject(email: string, firebaseUid: string, subject: string): Promise<UserRow | undefined>;
  remove(email: string): Promise<UserRow | undefined>;
  update(
    email: string,
    changes: Partial<
      Pick<UserRow, 'activated' | 'registered' | 'firebaseUid' | 'admin' | 'finance'> &
        DirectoryFields &
        AdminGrantFields
    >,
  ): Promise<UserRow | undefined>;
  transaction<T>(work: (inTransaction: UsersRepository) => Promise<T>): Promise<T>;
  /**
   * Writes an audit entry on this repository's connection: inside `transaction` it commits with the change
   * or not at all, so an acknowledged change never lacks its entry (a failover between two commits would lose
   * the second).
   */
  recordAudit(event: AuditEvent): Promise<void>;
  lockAdmins(): Promise<string[]>;
  /** Which of `emails` have at least one passkey: the administrators who can confirm an administrator's call. */
  passkeyHolders(emails: string[]): Promise<string[]>;
}
