import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { adminConfirmations, webauthnChallenges } from '../db/schema.ts';

/** One sign-in: the account and the moment its password was entered (the ID token's `auth_time`). */
export interface SignIn {
  uid: string;
  authTimeMs: number;
}

export type ChallengePurpose = 'registration' | 'authentication';

/**
 * What the passkey ceremonies remember between two requests (challenges, and the confirmations they led to), in the database so every instance sees it,
 * and on the database's clock so instances whose clocks differ still agree on what has run out.
 */
export function createSessionBoundStore(db: Database) {
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

    /**
     * Records that the browser holding the secret (its hash given), signed in as this sign-in, confirmed its
     * passkey now; returns that moment (the database's now).
     */
    async recordConfirmation(signIn: SignIn, secretHash: string, keepForMs: number): Promise<Date> {
      // Rows older than any sign-in may live are of no use to anyone.
      await db
        .delete(adminConfirmations)
        .where(lt(adminConfirmations.confirmedAt, sql`now() - make_interval(secs => ${keepForMs / 1000})`));
      const [row] = await db
        .insert(adminConfirmations)
        .values({ secretHash, firebaseUid: signIn.uid, authTime: new Date(signIn.authTimeMs) })
        .returning({ confirmedAt: adminConfirmations.confirmedAt });
      if (!row) throw new Error('recording a confirmation returned no row');
      return row.confirmedAt;
    },

    /**
     * When the browser holding this secret last confirmed this very sign-in (undefined: never, or no secret),
     * with the database's now to compare it with; one round trip, in milliseconds since the epoch.
     */
    async lastConfirmation(
      signIn: SignIn,
      secretHash: string | undefined,
    ): Promise<{ confirmedAtMs: number | undefined; lastSeenAtMs: number | undefined; nowMs: number }> {
      const [row] = await db
        .select({
          nowMs: sql<number>`(extract(epoch from now()) * 1000)::float8`,
          confirmedAtMs: sql<number | null>`(extract(epoch from ${adminConfirmations.confirmedAt}) * 1000)::float8`,
          lastSeenAtMs: sql<number | null>`(extract(epoch from ${adminConfirmations.lastSeenAt}) * 1000)::float8`,
        })
        .from(sql`(select 1) as clock`)
        .leftJoin(
          adminConfirmations,
          and(
            // No secret matches no row: '' is never the hash of anything.
            eq(adminConfirmations.secretHash, secretHash ?? ''),
            eq(adminConfirmations.firebaseUid, signIn.uid),
            eq(adminConfirmations.authTime, new Date(signIn.authTimeMs)),
          ),
        );
      if (!row) throw new Error('reading the clock returned no row');
      return {
        nowMs: row.nowMs,
        confirmedAtMs: row.confirmedAtMs ?? undefined,
        lastSeenAtMs: row.lastSeenAtMs ?? undefined,
      };
    },

    /** Notes a call made with this confirmation now (the database's now): the sign-in is not idle. */
    async noteActivity(secretHash: string) {
      await db
        .update(adminConfirmations)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(adminConfirmations.secretHash, secretHash));
    },

    /** Forgets every confirmation of an account (its passkeys were reset): the next admin call asks again. */
    async forgetConfirmations(uid: string) {
      await db.delete(adminConfirmations).where(eq(adminConfirmations.firebaseUid, uid));
    },

    /** Forgets the confirmation a browser's secret stands for (that browser signed out). */
    async forgetConfirmationOf(secretHash: string) {
      await db.delete(adminConfirmations).where(eq(adminConfirmations.secretHash, secretHash));
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
