import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { adminStepUps, webauthnChallenges } from '../db/schema.ts';

/** One sign-in: the account and the moment its password was entered (the ID token's `auth_time`). */
export interface SignIn {
  uid: string;
  authTimeMs: number;
}

export type ChallengePurpose = 'registration' | 'authentication';

/**
 * What the passkey ceremonies remember between two requests, in the database so every instance sees it,
 * and on the database's clock so instances whose clocks differ still agree on what has run out.
 */
export function createSessionBoundStore(db: Database) {
  const bySignIn = (table: typeof adminStepUps | typeof webauthnChallenges, signIn: SignIn) =>
    and(eq(table.firebaseUid, signIn.uid), eq(table.authTime, new Date(signIn.authTimeMs)));

  return {
    /** Keeps a challenge for this sign-in and purpose until `ttlMs` from now; expired ones are swept here. */
    async issueChallenge(signIn: SignIn, purpose: ChallengePurpose, challenge: string, ttlMs: number) {
      await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
      await db.insert(webauthnChallenges).values({
        challenge,
        firebaseUid: signIn.uid,
        authTime: new Date(signIn.authTimeMs),
        purpose,
        expiresAt: sql`now() + make_interval(secs => ${ttlMs / 1000})`,
      });
    },

    /**
     * Takes the challenge away and says whether it was this sign-in's, for this purpose, and still alive.
     * Deleted whatever the answer, so each challenge is answered at most once, even by racing requests.
     */
    async consumeChallenge(signIn: SignIn, purpose: ChallengePurpose, challenge: string): Promise<boolean> {
      const [taken] = await db
        .delete(webauthnChallenges)
        .where(eq(webauthnChallenges.challenge, challenge))
        .returning({
          uid: webauthnChallenges.firebaseUid,
          authTime: webauthnChallenges.authTime,
          purpose: webauthnChallenges.purpose,
          alive: sql<boolean>`${webauthnChallenges.expiresAt} > now()`,
        });
      return (
        taken !== undefined &&
        taken.alive &&
        taken.uid === signIn.uid &&
        taken.authTime.getTime() === signIn.authTimeMs &&
        taken.purpose === purpose
      );
    },

    /** Records that this sign-in confirmed its passkey now; returns that moment (the database's now). */
    async recordStepUp(signIn: SignIn, keepForMs: number): Promise<Date> {
      // Rows older than any sign-in may live are of no use to anyone.
      await db
        .delete(adminStepUps)
        .where(lt(adminStepUps.steppedUpAt, sql`now() - make_interval(secs => ${keepForMs / 1000})`));
      const [row] = await db
        .insert(adminStepUps)
        .values({ firebaseUid: signIn.uid, authTime: new Date(signIn.authTimeMs) })
        .onConflictDoUpdate({
          target: [adminStepUps.firebaseUid, adminStepUps.authTime],
          set: { steppedUpAt: sql`now()` },
        })
        .returning({ steppedUpAt: adminStepUps.steppedUpAt });
      if (!row) throw new Error('recording a step-up returned no row');
      return row.steppedUpAt;
    },

    /**
     * When this sign-in last confirmed its passkey (undefined: never), with the database's now to compare it
     * with; one round trip, in milliseconds since the epoch.
     */
    async lastStepUp(signIn: SignIn): Promise<{ steppedUpAtMs: number | undefined; nowMs: number }> {
      const [row] = await db
        .select({
          nowMs: sql<number>`(extract(epoch from now()) * 1000)::float8`,
          steppedUpAtMs: sql<number | null>`(extract(epoch from ${adminStepUps.steppedUpAt}) * 1000)::float8`,
        })
        .from(sql`(select 1) as clock`)
        .leftJoin(adminStepUps, bySignIn(adminStepUps, signIn));
      if (!row) throw new Error('reading the clock returned no row');
      return { nowMs: row.nowMs, steppedUpAtMs: row.steppedUpAtMs ?? undefined };
    },

    /** Forgets every confirmation of an account (its passkeys were reset): the next admin call asks again. */
    async forgetStepUps(uid: string) {
      await db.delete(adminStepUps).where(eq(adminStepUps.firebaseUid, uid));
    },

    /** Only for tests and tools: how many challenges are waiting (all of them alive or not). */
    async pendingChallenges(uid: string) {
      const rows = await db
        .select({ challenge: webauthnChallenges.challenge })
        .from(webauthnChallenges)
        .where(and(eq(webauthnChallenges.firebaseUid, uid), gt(webauthnChallenges.expiresAt, sql`now()`)));
      return rows.length;
    },
  };
}

export type SessionBoundStore = ReturnType<typeof createSessionBoundStore>;
