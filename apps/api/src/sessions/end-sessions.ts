import type { AuditTrail } from '../audit/audit-trail.ts';
import type { AuditEvent } from '../audit/repository.ts';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { DomainError } from '../domain-error.ts';

export interface SessionEnderDeps {
  identity: Pick<IdentityProvider, 'revokeSessions'>;
  /** The allowlist row of an address: the account it is bound to. */
  findUser(email: string): Promise<{ firebaseUid: string | null } | undefined>;
  audit: Pick<AuditTrail, 'bestEffort'>;
  /** Makes this process forget the account's verified tokens, so the end is seen here on the next call. */
  forgetSessions(uid: string): void;
}

export const notOnListMessage = (email: string) => `${email} is not on the list of allowed users.`;

export const UNBOUND_ROW_SESSIONS_DETAIL =
  "the row is bound to no sign-in account, so nobody signs in with it and no session was ended; an account holding the address (if any) is not provably the row's and was left alone";

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Ends every session of one person: the identity provider revokes the account's refresh tokens (no device
 * can get a new ID token), and the API refuses tokens issued before that (other instances within
 * TOKEN_RECHECK_SECONDS, this one at once). Audited whether it works or not.
 */
export function createSessionEnder(deps: SessionEnderDeps) {
  async function end(uid: string, event: Omit<AuditEvent, 'outcome'>) {
    try {
      await deps.identity.revokeSessions(uid);
    } catch (error) {
      await deps.audit.bestEffort({ ...event, outcome: 'failed', detail: `sessions not ended: ${describe(error)}` });
      throw error;
    }
    deps.forgetSessions(uid);
    await deps.audit.bestEffort({ ...event, outcome: 'ok' });
  }

  /** Ends the sessions of a row the caller holds already (a deactivation, in the users service). */
  async function endSessionsOfRow(input: { email: string; firebaseUid: string | null; actor: string }) {
    const { email, firebaseUid, actor } = input;
    const event = { actor, action: 'sessions.end' as const, target: email, detail: null };
    // Only the account the row is bound to is the row's. A row without one admits nobody, so no session
    // of this portal exists to end; the account holding the address now may be someone else's (an
    // address changed at the provider) and is left alone. Done, and said so in the log.
    if (!firebaseUid) await deps.audit.bestEffort({ ...event, outcome: 'ok', detail: UNBOUND_ROW_SESSIONS_DETAIL });
    else await end(firebaseUid, event);
    return { email, ended: true as const };
  }

  return {
    /** "Sign out everywhere": the signed-in person's own sessions, this one included. */
    async endOwnSessions(caller: { uid: string; email: string }) {
      await end(caller.uid, { actor: caller.email, action: 'sessions.end', target: caller.email, detail: 'own' });
      return { email: caller.email, ended: true as const };
    },

    /** "End sessions" on a row of the admin screen, or from the CLI. */
    async endSessionsOf(input: { email: string; actor: string }) {
      const { email, actor } = input;
      const row = await deps.findUser(email);
      if (!row) {
        const event = { actor, action: 'sessions.end' as const, target: email };
        await deps.audit.bestEffort({ ...event, outcome: 'refused', detail: 'not on the list' });
        throw new DomainError('not-found', notOnListMessage(email));
      }
      return endSessionsOfRow({ email, firebaseUid: row.firebaseUid, actor });
    },

    endSessionsOfRow,
  };
}

export type SessionEnder = ReturnType<typeof createSessionEnder>;
