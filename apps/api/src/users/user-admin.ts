import type { AuditAction } from '@portal/contract';
import { ForeignAccountError, type IdentityProvider } from '../identity/identity-provider.ts';
import { DomainError, type RefusalKind } from '../domain-error.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { SessionEnder } from '../sessions/end-sessions.ts';
import type { AccountCleaner } from './account-cleaner.ts';
import type { AccountCleanup } from './account-cleanups.ts';
import type { AdminGrantFields, DirectoryFields, UserRow, UsersRepository } from './repository.ts';

export interface UserAdminDeps {
  users: UsersRepository;
  audit: Pick<AuditTrail, 'required' | 'bestEffort'> & Partial<Pick<AuditTrail, 'bestEffortMany'>>;
  identity: IdentityProvider;
  /** Finishes removals at the identity provider (account-cleaner.ts). */
  cleaner: Pick<AccountCleaner, 'attempt' | 'finishFor'> & Partial<Pick<AccountCleaner, 'pendingAmong'>>;
  /** Makes this process forget an account's cached tokens, so its removal is seen on the very next call. */
  forgetSessions?: (uid: string) => void;
  /** Ends a deactivated person's sessions at the identity provider (sessions/end-sessions.ts). */
  sessions?: Pick<SessionEnder, 'endSessionsOfRow'>;
  log: { error(details: object, message: string): void };
  /**
   * The roles the company directory keeps on its rows (SCIM_ASSIGNABLE_ROLES); the others are the
   * administrators' to change there too. Unset: every role, as when the directory kept them all.
   */
  directoryRoles?: readonly ('admin' | 'finance')[];
}

export const notOnListMessage = (email: string) => `${email} is not on the list of allowed users.`;
export const alreadyOnListMessage = (email: string) => `${email} is already on the list.`;
export const NO_ACCOUNT_MESSAGE = 'No account is registered for this e-mail address.';
export const SELF_REMOVAL_MESSAGE = 'You cannot remove your own account. Ask another administrator to do it.';
export const LAST_ADMIN_MESSAGE = 'You cannot remove the last administrator. Add another administrator first.';
export const LAST_ADMIN_ROLE_MESSAGE =
  'You cannot take the administrator role from the last administrator. Make someone else an administrator first.';
export const foreignAccountMessage = (email: string) =>
  `${email} already has a sign-in account that this portal did not make (someone signed up with it, or another ` +
  'app of the same Firebase project uses it). Nothing was added. If that account is not meant to be kept, add ' +
  'the address again and confirm taking the account over (the CLI: --take-over): it is then deleted, with its ' +
  'password and sessions, and a new one is made. Otherwise ask whoever runs the Firebase project.';
export const cleanupPendingMessage = (email: string) =>
  `${email} was removed recently and the sign-in service has not yet confirmed that its old account is deleted. ` +
  'Please try adding it again in a few minutes.';
export const accountTakenMessage = (email: string, holder: string) =>
  `The sign-in account of ${email} is already the account of ${holder}, who is on the list (its address was ` +
  `changed at the identity provider). Remove ${holder} first, or change the account's address back.`;

export const managedByDirectoryMessage = (email: string) =>
  `${email} is kept by your company directory (SCIM provisioning). Change or remove them in the directory ` +
  '(Microsoft Entra ID, Okta, …) instead: a change made here would be undone by its next sync.';
export const LAST_ADMIN_SUSPEND_MESSAGE =
  'The directory cannot deactivate the last administrator. Make someone else an administrator first.';

export const lastPasskeyAdminMessage = (email: string) =>
  `The directory cannot remove, deactivate or take the administrator role from ${email}: they are the last ` +
  "administrator with a passkey, and without one nobody could confirm an administrator's call. Have another " +
  'administrator set up a passkey first.';

/** The value of users.managed_by for rows the company directory keeps. */
export const DIRECTORY = 'scim';

/** What the directory sets on a row it keeps: its own id for the person, and whether it is deactivated. */
export interface DirectoryState {
  externalId: string | null;
  suspended: boolean;
}

/** A sign-in account bound to a row already: the unique index on users.firebase_uid said no. */
function isAccountAlreadyBound(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    const { code, constraint, message } = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && (constraint === 'users_firebase_uid_idx' || String(message).includes('firebase_uid')))
      return true;
  }
  return false;
}

/**
 * The company directory may not leave the portal without an administrator who has a passkey: nobody could
 * then confirm an administrator's call, and only the CLI could bring one back. Checked under `lockAdmins`.
 */
async function refuseLeavingNoPasskeyAdmin(txUsers: UsersRepository, admins: string[], leaving: string) {
  const holders = await txUsers.passkeyHolders(admins);
  if (holders.includes(leaving) && holders.every((holder) => holder === leaving))
    throw new DomainError('conflict', lastPasskeyAdminMessage(leaving));
}

/**
 * Adding and removing allowed users, shared by the HTTP routes and the CLI so both keep the allowlist row
 * and the identity-provider account in step the same way, and both leave the same audit trail.
 */
export function createUserAdmin(deps: UserAdminDeps) {
  const { users, identity } = deps;

  const audit = deps.audit.bestEffort;

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

  /**
   * The portal's account for the address: created, or one it made before. An account someone else made is
   * refused, unless the admin confirmed taking it over: then its deletion is audited first, and only then
   * are its sessions ended, it is deleted and a new one made.
   */
  async function portalAccount(email: string, actor: string, takeOver: boolean) {
    const event = { actor, action: 'users.add' as const, target: email };
    try {
      return { ...(await identity.createUser(email)), replaced: undefined };
    } catch (error) {
      if (!(error instanceof ForeignAccountError)) {
        await audit({
          ...event,
          outcome: 'failed',
          detail: 'the identity provider did not create the account; nothing was added',
        });
        throw error;
      }
      if (!takeOver) {
        await audit({
          ...event,
          outcome: 'refused',
          detail: `a sign-in account the portal did not make has this address (uid ${error.uid}); left as it is`,
        });
        throw new DomainError('foreign-account', foreignAccountMessage(email), 'foreign account');
      }
      const foreign = error.uid;
      // Written before the deletion, and not best-effort: a deletion that cannot be audited does not happen.
      await deps.audit.required({
        actor,
        action: 'users.take-over-account',
        target: email,
        outcome: 'ok',
        detail: `deleting the sign-in account uid ${foreign}, which the portal did not make, as confirmed by ${actor}`,
      });
      try {
        await identity.revokeSessions(foreign);
        await identity.deleteUser(foreign);
        deps.forgetSessions?.(foreign);
        return { ...(await identity.createUser(email)), replaced: foreign };
      } catch (failure) {
        await audit({
          ...event,
          outcome: 'failed',
          detail: `taking over uid ${foreign} did not finish (${describe(failure)}); nothing was added`,
        });
        if (failure instanceof ForeignAccountError)
          throw new DomainError('foreign-account', foreignAccountMessage(email), 'foreign account again');
        throw failure;
      }
    }
  }

  /**
   * One change of a row in one transaction, audited when it does not happen: a refusal (a `DomainError`) as
   * refused with its message, anything else as failed with nothing changed. Success is the caller's to audit,
   * with what it changed, inside `work` (`recordAudit`), so the entry commits with the change.
   */
  async function auditedTransaction<T>(
    event: { actor: string; action: AuditAction; target: string },
    work: (txUsers: UsersRepository) => Promise<T>,
  ): Promise<T> {
    try {
      return await users.transaction(work);
    } catch (error) {
      if (error instanceof DomainError) await audit({ ...event, outcome: 'refused', detail: error.message });
      else await audit({ ...event, outcome: 'failed', detail: `nothing was changed: ${describe(error)}` });
      throw error;
    }
  }

  /**
   * One role change in one transaction: `write` applies the role's own rule (the last-admin lock) and writes
   * the row; on a row the directory keeps, a role it keeps is refused, rolled back, unless it asks itself.
   * Audited whatever happens; on success the person's cached token verification, which carries the old
   * roles, is forgotten so the change holds at once.
   */
  async function changeRole(
    event: { actor: string; action: AuditAction; target: string },
    change: { role: 'admin' | 'finance'; byDirectory: boolean | undefined },
    write: (txUsers: UsersRepository) => Promise<UserRow | undefined>,
  ): Promise<UserRow> {
    const email = event.target;
    const directoryKeepsRole = deps.directoryRoles?.includes(change.role) ?? true;
    const changed = await auditedTransaction(event, async (txUsers) => {
      const row = await write(txUsers);
      if (!row) throw new DomainError('not-found', notOnListMessage(email));
      if (row.managedBy && !change.byDirectory && directoryKeepsRole)
        throw new DomainError('managed-by-directory', managedByDirectoryMessage(email));
      await txUsers.recordAudit({ ...event, outcome: 'ok', detail: null });
      return row;
    });
    if (changed.firebaseUid) deps.forgetSessions?.(changed.firebaseUid);
    return changed;
  }

  return {
    /**
     * Allows an address in: its sign-in account (the portal's, see `portalAccount`), then its row. A removal
     * of the same address whose account clean-up is still pending is finished first, or the add is refused:
     * otherwise the new row would adopt the old account, which the clean-up then deletes.
     */
    async addUser(input: {
      email: string;
      admin?: boolean;
      finance?: boolean;
      actor: string;
      takeOver?: boolean;
      /** Provisioned by the company directory (SCIM): the row is marked as kept by it. */
      directory?: DirectoryState;
    }): Promise<UserRow> {
      const { email, actor } = input;
      const admin = input.admin ?? false;
      const finance = input.finance ?? false;
      const event = { actor, action: 'users.add' as const, target: email };
      // Checked first so a duplicate costs no identity-provider call; the insert below still decides races.
      if (await users.findByEmail(email)) {
        await audit({ ...event, outcome: 'refused', detail: 'already on the list' });
        throw new DomainError('conflict', alreadyOnListMessage(email));
      }
      if ((await deps.cleaner.finishFor(email)) > 0) {
        await audit({ ...event, outcome: 'refused', detail: 'the clean-up of its earlier removal is still pending' });
        throw new DomainError('unavailable', cleanupPendingMessage(email), 'account clean-up pending');
      }
      const account = await portalAccount(email, actor, input.takeOver ?? false);
      const holder = account.created ? undefined : await users.findByFirebaseUid(account.uid);
      if (holder && holder.email !== email) {
        await audit({ ...event, outcome: 'refused', detail: `its sign-in account is bound to ${holder.email}` });
        throw new DomainError('conflict', accountTakenMessage(email, holder.email));
      }
      const details = [
        admin && 'as administrator',
        finance && 'with the finance role',
        account.replaced && `took over an account the portal had not made (uid ${account.replaced})`,
        input.directory && 'kept by the company directory',
        input.directory?.suspended && 'deactivated',
      ].filter(Boolean);
      let row: UserRow | undefined;
      try {
        // The row and its entry commit together: an add answered as done is never missing from the log.
        row = await users.transaction(async (txUsers) => {
          const inserted = await txUsers.insert({
            email,
            admin,
            finance,
            registered: true,
            firebaseUid: account.uid,
            createdBy: actor,
            ...adminGrant(admin, actor),
            ...(input.directory ? directoryFields(input.directory) : {}),
          });
          if (inserted)
            await txUsers.recordAudit({
              ...event,
              outcome: 'ok',
              detail: details.length > 0 ? details.join('; ') : null,
            });
          return inserted;
        });
      } catch (error) {
        const fate = await undoAccount(email, account);
        await audit({ ...event, outcome: 'failed', detail: `the database refused the row; the account was ${fate}` });
        if (isAccountAlreadyBound(error)) throw new DomainError('conflict', accountTakenMessage(email, 'another user'));
        throw error;
      }
      if (!row) {
        // Lost a race with an identical add: that add's row now owns the account, so it stays.
        await audit({ ...event, outcome: 'refused', detail: 'already on the list (added concurrently)' });
        throw new DomainError('conflict', alreadyOnListMessage(email));
      }
      return row;
    },

    /**
     * `addUser` for many addresses (already checked and each once) in a few round trips instead of a few per
     * address: one query for those on the list, one for pending clean-ups, the identity provider's batch
     * import, one insert and one audit write for the added. Every address is audited as `addUser` audits it.
     * What the batch cannot decide alike for all (a clean-up to finish, an account that existed, a row the
     * insert left out) goes through `addUser` itself, whose answer it is; those are left out of the answer,
     * as are all when the identity provider or the audit trail has no batch call.
     */
    async addUsersInBatch(input: {
      emails: readonly string[];
      finance: boolean;
      actor: string;
    }): Promise<{ added: Set<string>; onList: Set<string>; failed: Map<string, Error>; rest: string[] }> {
      const { actor, finance } = input;
      const outcome = { added: new Set<string>(), onList: new Set<string>(), failed: new Map<string, Error>() };
      const { createUsers } = identity;
      const { pendingAmong } = deps.cleaner;
      const auditMany = deps.audit.bestEffortMany;
      if (!createUsers || !pendingAmong || !auditMany) return { ...outcome, rest: [...input.emails] };
      const event = (target: string) => ({ actor, action: 'users.add' as const, target });

      const onList = await users.emailsOnList(input.emails);
      const pending = await pendingAmong(input.emails.filter((email) => !onList.has(email)));
      const rest = [...pending];
      const fresh = input.emails.filter((email) => !onList.has(email) && !pending.has(email));
      let accounts: Map<string, { uid: string; created: boolean } | Error>;
      try {
        accounts = await createUsers.call(identity, fresh);
      } catch (error) {
        for (const email of fresh) outcome.failed.set(email, error as Error);
        await auditMany([
          ...[...onList].map((email) => ({
            ...event(email),
            outcome: 'refused' as const,
            detail: 'already on the list',
          })),
          ...fresh.map((email) => ({
            ...event(email),
            outcome: 'failed' as const,
            detail: 'the identity provider did not create the account; nothing was added',
          })),
        ]);
        return { ...outcome, onList, rest };
      }
      const created: { email: string; uid: string }[] = [];
      for (const email of fresh) {
        const account = accounts.get(email);
        if (account && !(account instanceof Error) && account.created) created.push({ email, uid: account.uid });
        else rest.push(email);
      }
      let inserted: Set<string>;
      try {
        const rows = await users.insertMany(
          created.map(({ email, uid }) => ({
            email,
            admin: false,
            finance,
            registered: true,
            firebaseUid: uid,
            createdBy: actor,
            ...adminGrant(false, actor),
          })),
        );
        inserted = new Set(rows.map((row) => row.email));
      } catch (error) {
        const fates = await Promise.all(created.map(({ email, uid }) => undoAccount(email, { uid, created: true })));
        for (const { email } of created) outcome.failed.set(email, error as Error);
        await auditMany([
          ...[...onList].map((email) => ({
            ...event(email),
            outcome: 'refused' as const,
            detail: 'already on the list',
          })),
          ...created.map(({ email }, index) => ({
            ...event(email),
            outcome: 'failed' as const,
            detail: `the database refused the row; the account was ${fates[index]}`,
          })),
        ]);
        return { ...outcome, onList, rest };
      }
      // Not written: another add listed the address, or holds the account, meanwhile; `addUser` says which.
      for (const { email } of created) {
        if (inserted.has(email)) outcome.added.add(email);
        else rest.push(email);
      }
      await auditMany([
        ...[...onList].map((email) => ({
          ...event(email),
          outcome: 'refused' as const,
          detail: 'already on the list',
        })),
        ...[...inserted].map((email) => ({
          ...event(email),
          outcome: 'ok' as const,
          detail: finance ? 'with the finance role' : null,
        })),
      ]);
      return { ...outcome, onList, rest };
    },

    /**
     * Deletes the row and queues its account's clean-up in one short transaction (it decides concurrent
     * removals and the last-admin rule). Committed, the removal holds whatever the identity provider does:
     * the row alone decides access. Then, with no database connection held, the clean-up (end the sessions,
     * delete the account) is tried once; if the provider fails or is slow, it stays queued and is retried
     * until done (account-cleaner.ts), and `accountCleanup` says 'pending'.
     */
    async removeUser(input: {
      email: string;
      actor: string;
      /** The company directory itself asks (SCIM): the only one who may remove a row it keeps. */
      byDirectory?: boolean;
    }): Promise<{ row: UserRow; accountCleanup: 'done' | 'pending' }> {
      const { email, actor } = input;
      const event = { actor, action: 'users.remove' as const, target: email };
      const refuse = async (kind: RefusalKind, message: string): Promise<never> => {
        await audit({ ...event, outcome: 'refused', detail: message });
        throw new DomainError(kind, message);
      };
      if (email === actor) return refuse('conflict', SELF_REMOVAL_MESSAGE);

      let removed: { row: UserRow; cleanup: AccountCleanup };
      try {
        removed = await users.transaction(async (txUsers) => {
          const admins = await txUsers.lockAdmins();
          // Before the removal, which takes the row's passkeys with it.
          if (input.byDirectory && admins.includes(email)) await refuseLeavingNoPasskeyAdmin(txUsers, admins, email);
          const done = await txUsers.removeQueuingCleanup(email, actor);
          // Throwing rolls the removal back, and its queued clean-up with it.
          if (!done) throw new DomainError('not-found', notOnListMessage(email));
          if (done.row.managedBy && !input.byDirectory)
            throw new DomainError('managed-by-directory', managedByDirectoryMessage(email));
          if (done.row.admin && admins.every((other) => other === email))
            throw new DomainError('conflict', LAST_ADMIN_MESSAGE);
          // In the removal's transaction: a removal answered as done is never missing from the log.
          await txUsers.recordAudit({
            ...event,
            outcome: 'ok',
            detail: done.row.admin ? 'was an administrator' : null,
          });
          return done;
        });
      } catch (error) {
        if (error instanceof DomainError && error.kind !== 'unavailable') return refuse(error.kind, error.message);
        await audit({ ...event, outcome: 'failed', detail: `nothing was removed: ${describe(error)}` });
        throw error;
      }
      const { row, cleanup } = removed;
      if (row.firebaseUid) deps.forgetSessions?.(row.firebaseUid);
      return { row, accountCleanup: await deps.cleaner.attempt(cleanup) };
    },

    /**
     * Makes someone an administrator or stops them being one; refused for the last administrator, checked
     * under the same lock as a removal so two admins demoting each other cannot leave none.
     */
    async setAdmin(input: {
      email: string;
      admin: boolean;
      actor: string;
      byDirectory?: boolean;
      /** A promotion a second administrator (`actor`) approved: who asked for it. */
      requestedBy?: string;
    }): Promise<UserRow> {
      const { email, admin, actor } = input;
      const event = {
        actor,
        action: admin ? ('users.make-admin' as const) : ('users.remove-admin' as const),
        target: email,
      };
      return changeRole(event, { role: 'admin', byDirectory: input.byDirectory }, async (txUsers) => {
        const admins = await txUsers.lockAdmins();
        if (!admin && admins.length === 1 && admins[0] === email)
          throw new DomainError('conflict', LAST_ADMIN_ROLE_MESSAGE);
        if (!admin && input.byDirectory) await refuseLeavingNoPasskeyAdmin(txUsers, admins, email);
        // An administrator already keeps who made them one and when; a repeated promotion changes neither.
        if (admin && admins.includes(email)) return txUsers.update(email, { admin });
        return txUsers.update(email, { admin, ...adminGrant(admin, actor, input.requestedBy) });
      });
    },

    /**
     * What the company directory sets on a row (SCIM PUT and PATCH): its id for the person and whether it is
     * deactivated; the row is kept by the directory from then on, a row the admins had added included.
     * Deactivating the last active administrator is refused under the same lock as a removal. The row alone
     * refuses them from the moment this commits, on every instance (the allowlist change notice); a
     * deactivation also forgets their tokens here and ends their sessions at the identity provider, from the
     * row this transaction read (no second read), so no caller has a step of its own to forget.
     */
    async setDirectoryState(input: {
      email: string;
      actor: string;
      state: DirectoryState;
    }): Promise<{ row: UserRow; before: UserRow }> {
      const { email, actor, state } = input;
      const event = { actor, action: 'users.directory-update' as const, target: email };
      const changed = await auditedTransaction(event, async (txUsers) => {
        const admins = await txUsers.lockAdmins();
        const before = await txUsers.findByEmail(email);
        if (!before) throw new DomainError('not-found', notOnListMessage(email));
        if (state.suspended && before.admin && admins.every((other) => other === email))
          throw new DomainError('conflict', LAST_ADMIN_SUSPEND_MESSAGE);
        if (state.suspended && before.admin) await refuseLeavingNoPasskeyAdmin(txUsers, admins, email);
        // A directory repeats what it sent (Entra ID every 40 minutes): an unchanged row is not written.
        const fields = directoryFields(state);
        if (
          before.managedBy === fields.managedBy &&
          before.suspended === fields.suspended &&
          before.scimExternalId === fields.scimExternalId
        )
          return { row: before, before };
        const row = await txUsers.update(email, fields);
        if (!row) throw new DomainError('not-found', notOnListMessage(email));
        const details = [
          !before.managedBy && 'now kept by the company directory',
          row.suspended !== before.suspended && (row.suspended ? 'deactivated' : 'reactivated'),
          row.scimExternalId !== before.scimExternalId && 'its directory id changed',
        ].filter(Boolean);
        if (details.length > 0) await txUsers.recordAudit({ ...event, outcome: 'ok', detail: details.join('; ') });
        return { row, before };
      });
      const { row, before } = changed;
      if (row !== before && row.suspended && row.firebaseUid) deps.forgetSessions?.(row.firebaseUid);
      if (row.suspended && !before.suspended) {
        // Revokes their refresh tokens, so no device of theirs gets a new ID token. A failure is logged and
        // audited by the session ender: the deactivation holds all the same.
        await deps.sessions
          ?.endSessionsOfRow({ email: row.email, firebaseUid: row.firebaseUid, actor })
          .catch((error: unknown) =>
            deps.log.error({ err: error }, 'could not end the sessions of a deactivated user'),
          );
      }
      return changed;
    },

    /**
     * Gives or takes the finance role. Unlike the admin role there is no last-holder rule: a portal without
     * finance users is what every portal was before the role existed.
     */
    async setFinance(input: {
      email: string;
      finance: boolean;
      actor: string;
      byDirectory?: boolean;
    }): Promise<UserRow> {
      const { email, finance, actor } = input;
      const event = {
        actor,
        action: finance ? ('users.grant-finance' as const) : ('users.remove-finance' as const),
        target: email,
      };
      return changeRole(event, { role: 'finance', byDirectory: input.byDirectory }, (txUsers) =>
        txUsers.update(email, { finance }),
      );
    },
  };
}

export type UserAdmin = ReturnType<typeof createUserAdmin>;

/** Who made someone an administrator and when, kept for the change guard's second person; cleared with the role. */
const adminGrant = (admin: boolean, actor: string, requestedBy?: string): AdminGrantFields =>
  admin
    ? { adminGrantedBy: requestedBy ?? actor, adminApprovedBy: requestedBy ? actor : null, adminGrantedAt: new Date() }
    : { adminGrantedBy: null, adminApprovedBy: null, adminGrantedAt: null };

const directoryFields = (state: DirectoryState): DirectoryFields => ({
  managedBy: DIRECTORY,
  scimExternalId: state.externalId,
  suspended: state.suspended,
});

function describe(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}
