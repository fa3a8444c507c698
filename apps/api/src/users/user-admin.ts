import type { IdentityProvider } from '../identity/identity-provider.ts';
import { DomainError, type RefusalKind } from '../domain-error.ts';
import type { AuditEvent, AuditRepository } from '../audit/repository.ts';
import type { UserRow, UsersRepository } from './repository.ts';

export interface UserAdminDeps {
  users: UsersRepository;
  audit: AuditRepository;
  identity: IdentityProvider;
  /** Makes this process forget an account's cached tokens, so its removal is seen on the very next call. */
  forgetSessions?: (uid: string) => void;
  log: { error(details: object, message: string): void };
}

export const notOnListMessage = (email: string) => `${email} is not on the list of allowed users.`;
export const alreadyOnListMessage = (email: string) => `${email} is already on the list.`;
export const NO_ACCOUNT_MESSAGE = 'No account is registered for this e-mail address.';
export const SELF_REMOVAL_MESSAGE = 'You cannot remove your own account. Ask another administrator to do it.';
export const LAST_ADMIN_MESSAGE = 'You cannot remove the last administrator. Add another administrator first.';
export const LAST_ADMIN_ROLE_MESSAGE =
  'You cannot take the administrator role from the last administrator. Make someone else an administrator first.';

/**
 * Adding and removing allowed users, shared by the HTTP routes and the CLI so both keep the allowlist row
 * and the identity-provider account in step the same way, and both leave the same audit trail.
 */
export function createUserAdmin(deps: UserAdminDeps) {
  const { users, identity } = deps;

  // The audit trail must never turn a finished change into an error, nor hide the error that stopped one.
  async function audit(event: AuditEvent) {
    try {
      await deps.audit.record(event);
    } catch (error) {
      deps.log.error({ err: error, event }, 'could not write the audit log');
    }
  }

  /** Removes an account this call created, when its row could not be written; the row never existed. */
  async function undoAccount(email: string, account: { uid: string; created: boolean }) {
    if (!account.created) return 'kept (it existed before)';
    try {
      // A concurrent add of the same address may have written its row for this very account meanwhile.
      if (await users.findByEmail(email).catch(() => undefined)) return 'kept (a concurrent add listed it)';
      await identity.deleteUser(account.uid);
      return 'deleted again';
    } catch (error) {
      deps.log.error({ err: error, uid: account.uid }, 'could not delete the account of a failed add');
      return `LEFT BEHIND (uid ${account.uid}); remove it from the identity provider`;
    }
  }

  return {
    async addUser(input: { email: string; admin?: boolean; actor: string }): Promise<UserRow> {
      const { email, actor } = input;
      const admin = input.admin ?? false;
      const event = { actor, action: 'users.add', target: email };
      // Checked first so a duplicate costs no identity-provider call; the insert below still decides races.
      if (await users.findByEmail(email)) {
        await audit({ ...event, outcome: 'refused', detail: 'already on the list' });
        throw new DomainError('conflict', alreadyOnListMessage(email));
      }
      let account: { uid: string; created: boolean; replaced?: string };
      try {
        account = await identity.createUser(email);
      } catch (error) {
        await audit({
          ...event,
          outcome: 'failed',
          detail: 'the identity provider did not create the account; nothing was added',
        });
        throw error;
      }
      if (account.replaced) deps.forgetSessions?.(account.replaced);
      let row: UserRow | undefined;
      try {
        row = await users.insert({ email, admin, firebaseUid: account.uid, createdBy: actor });
      } catch (error) {
        const fate = await undoAccount(email, account);
        await audit({ ...event, outcome: 'failed', detail: `the database refused the row; the account was ${fate}` });
        throw error;
      }
      if (!row) {
        // Lost a race with an identical add: that add's row now owns the account, so it stays.
        await audit({ ...event, outcome: 'refused', detail: 'already on the list (added concurrently)' });
        throw new DomainError('conflict', alreadyOnListMessage(email));
      }
      const details = [
        admin && 'as administrator',
        account.replaced && `replaced an account the portal had not made (uid ${account.replaced})`,
      ].filter(Boolean);
      await audit({ ...event, outcome: 'ok', detail: details.length > 0 ? details.join('; ') : null });
      return row;
    },

    /**
     * Deletes the row in a short transaction (it decides concurrent removals and the last-admin rule), then,
     * with no database connection held, revokes the sessions and deletes the account. Should the identity
     * provider fail, the row is put back as it was, so the list still matches the accounts; meanwhile the
     * person was briefly not on the list, which only stops them sooner than the removal meant to.
     */
    async removeUser(input: { email: string; actor: string }): Promise<UserRow> {
      const { email, actor } = input;
      const event = { actor, action: 'users.remove', target: email };
      const refuse = async (kind: RefusalKind, message: string): Promise<never> => {
        await audit({ ...event, outcome: 'refused', detail: message });
        throw new DomainError(kind, message);
      };
      if (email === actor) return refuse('conflict', SELF_REMOVAL_MESSAGE);

      let removed: UserRow;
      try {
        removed = await users.transaction(async (txUsers) => {
          const admins = await txUsers.lockAdmins();
          const row = await txUsers.remove(email);
          // Throwing rolls the removal back.
          if (!row) throw new DomainError('not-found', notOnListMessage(email));
          if (row.admin && admins.every((other) => other === email))
            throw new DomainError('conflict', LAST_ADMIN_MESSAGE);
          return row;
        });
      } catch (error) {
        if (error instanceof DomainError && error.kind !== 'unavailable') return refuse(error.kind, error.message);
        await audit({ ...event, outcome: 'failed', detail: `nothing was removed: ${describe(error)}` });
        throw error;
      }

      let uid: string | undefined;
      try {
        uid = removed.firebaseUid ?? (await identity.findUserByEmail(email))?.uid;
        if (uid) {
          // Sessions first: should the deletion then fail, the person is at least signed out everywhere.
          await identity.revokeSessions(uid);
          await identity.deleteUser(uid);
        }
      } catch (error) {
        const putBack = await users.restore(removed).then(
          (restored) => (restored ? 'nothing was removed' : 'nothing was removed (the row was added again meanwhile)'),
          (restoreError: unknown) => {
            deps.log.error({ err: restoreError }, 'could not put back the row of a failed removal');
            return 'the row is GONE but the account is not; add and remove the user again to finish';
          },
        );
        await audit({ ...event, outcome: 'failed', detail: `${putBack}: ${describe(error)}` });
        throw error;
      }
      if (uid) deps.forgetSessions?.(uid);
      await audit({ ...event, outcome: 'ok', detail: removed.admin ? 'was an administrator' : null });
      return removed;
    },

    /**
     * Makes someone an administrator or stops them being one; refused for the last administrator, checked
     * under the same lock as a removal so two admins demoting each other cannot leave none.
     */
    async setAdmin(input: { email: string; admin: boolean; actor: string }): Promise<UserRow> {
      const { email, admin, actor } = input;
      const event = { actor, action: admin ? 'users.make-admin' : 'users.remove-admin', target: email };
      let changed: UserRow;
      try {
        changed = await users.transaction(async (txUsers) => {
          const admins = await txUsers.lockAdmins();
          if (!admin && admins.length === 1 && admins[0] === email)
            throw new DomainError('conflict', LAST_ADMIN_ROLE_MESSAGE);
          const row = await txUsers.update(email, { admin });
          if (!row) throw new DomainError('not-found', notOnListMessage(email));
          return row;
        });
      } catch (error) {
        if (error instanceof DomainError) {
          await audit({ ...event, outcome: 'refused', detail: error.message });
          throw error;
        }
        await audit({ ...event, outcome: 'failed', detail: `nothing was changed: ${describe(error)}` });
        throw error;
      }
      // The caller's cached token verification carries the old role: forget it so the change holds at once.
      if (changed.firebaseUid) deps.forgetSessions?.(changed.firebaseUid);
      await audit({ ...event, outcome: 'ok', detail: null });
      return changed;
    },

    /** Confirms a row an admin created, if there is one; creates nothing, and confirming twice changes nothing. */
    async registerUser(email: string): Promise<void> {
      await users.update(email, { registered: true });
    },
  };
}

export type UserAdmin = ReturnType<typeof createUserAdmin>;

function describe(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}
