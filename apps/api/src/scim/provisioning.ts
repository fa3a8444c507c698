import { and, eq, inArray } from 'drizzle-orm';
import { emailSchema } from '@portal/contract';
import { z } from 'zod';
import { users as usersTable } from '../db/schema.ts';
import { DomainError } from '../domain-error.ts';
import type { UserRow, UsersRepository } from '../users/repository.ts';
import { DIRECTORY, notOnListMessage, type UserAdmin } from '../users/user-admin.ts';
import { parseFilter, stripSchema, type Filter } from './filter.ts';
import { userFilterSql } from './filter-sql.ts';
import { applyGroupPatch, applyUserPatch, booleanOf, RENAME_MESSAGE, type Operation, type UserState } from './patch.ts';
import type { ScimRoleName } from './role-names.ts';
import { columnOf, roleNamed, ROLES, type Role } from './roles.ts';
import { ScimError, toScimError } from './scim-error.ts';
import { USER_SCHEMA } from './scim-schemas.ts';

/** The actor the audit log names for every change the company directory makes. */
export const SCIM_ACTOR = 'scim';

export interface ProvisioningDeps {
  users: UsersRepository;
  userAdmin: UserAdmin;
  /** What the operator lets the directory do (config.ts: SCIM_EMAIL_DOMAINS, SCIM_ASSIGNABLE_ROLES). */
  rules: DirectoryRules;
}

export interface DirectoryRules {
  /** The domains of the addresses it may create; empty: any. */
  emailDomains: readonly string[];
  /** The roles it gives and takes; the others are the administrators', on its rows too. */
  assignableRoles: readonly ScimRoleName[];
}

export const notKeptByDirectoryMessage = (email: string) =>
  `${email} was added on the portal, not by the directory, which changes only the people it keeps. A portal ` +
  `administrator adopts them into the directory first: npm run portal -- users adopt ${email} --operator <name>.`;
export const notAssignableMessage = (role: string) =>
  `The directory may not give or take the ${role} role: the portal's operator has not given it to the directory ` +
  "(SCIM_ASSIGNABLE_ROLES), so the portal's administrators set it on the admin screen. Leave the group " +
  'unassigned, or ask the operator to allow it.';
export const outsideDomainsMessage = (email: string, domains: readonly string[]) =>
  `${email} is not an address of the company's domains (${domains.join(', ')}): the directory may list those alone ` +
  '(SCIM_EMAIL_DOMAINS). Map the work address to userName, or ask the operator to add the domain.';

const notFound = (what: string, id: string) => new ScimError(404, undefined, `No ${what} has the id "${id}".`);

/** Runs a users-domain call, its refusals (DomainError) said as SCIM errors. */
async function asScim<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.kind !== 'unavailable') throw toScimError(error);
    throw error;
  }
}

/** A User body (POST, PUT): its attributes at the top level, or under the core schema's URN as some send them. */
const userBodySchema = z.looseObject({ schemas: z.array(z.string()).optional() });

function userStateOf(body: unknown): UserState {
  const parsed = userBodySchema.safeParse(body);
  if (!parsed.success) throw new ScimError(400, 'invalidSyntax', 'A User is a JSON object.');
  const nested = parsed.data[USER_SCHEMA];
  const attributes: Record<string, unknown> = {
    ...parsed.data,
    ...(typeof nested === 'object' && nested !== null ? nested : {}),
  };
  const userName = attributes.userName;
  if (typeof userName !== 'string' || userName.trim() === '')
    throw new ScimError(400, 'invalidSyntax', 'A User needs a userName: the e-mail address the person signs in with.');
  const address = emailSchema.safeParse(userName);
  if (!address.success)
    throw new ScimError(
      400,
      'invalidValue',
      `userName "${userName}" is not an e-mail address: map the person's e-mail to userName.`,
    );
  const externalId = attributes.externalId;
  if (externalId !== undefined && externalId !== null && (typeof externalId !== 'string' || externalId.length > 256))
    throw new ScimError(400, 'invalidValue', 'externalId is a string of at most 256 characters.');
  return {
    userName: address.data,
    externalId: (externalId as string | null | undefined) ?? null,
    active: attributes.active === undefined ? true : booleanOf(attributes.active, 'active'),
  };
}

const stateOfRow = (row: UserRow): UserState => ({
  userName: row.email,
  externalId: row.scimExternalId,
  active: !row.suspended,
});

export interface ListQuery {
  filter?: string | undefined;
  startIndex?: number | undefined;
  count?: number | undefined;
  sortBy?: string | undefined;
  sortOrder?: 'ascending' | 'descending' | undefined;
}

/**
 * The company directory's view of the allowlist: Users are rows, Groups are roles. Every change goes through
 * the users domain's own services (user-admin.ts: add, remove, roles, the directory's state and with it a
 * deactivated person's sessions), so the audit log, the last-admin rule, the change notices that reach every
 * instance and the sign-in account's clean-up are the admin screen's, with `scim` as the actor.
 */
export function createProvisioning(deps: ProvisioningDeps) {
  const { users, userAdmin, rules } = deps;

  async function userById(id: string) {
    const row = await users.findByScimId(id);
    if (!row) throw notFound('user', id);
    return row;
  }

  /** A row the directory may change: one it made, or one an administrator adopted into it. */
  async function keptUserById(id: string) {
    const row = await userById(id);
    if (row.managedBy !== DIRECTORY) throw new ScimError(403, undefined, notKeptByDirectoryMessage(row.email));
    return row;
  }

  /** Sets what the directory keeps on a row; the users service ends the sessions of someone it deactivates. */
  async function applyState(row: UserRow, state: UserState): Promise<UserRow> {
    if (state.userName !== row.email) throw new ScimError(400, 'mutability', RENAME_MESSAGE);
    const { row: changed } = await asScim(() =>
      userAdmin.setDirectoryState({
        email: row.email,
        actor: SCIM_ACTOR,
        state: { externalId: state.externalId, suspended: !state.active },
      }),
    );
    return changed;
  }

  /** A role's members as the directory sees them: the people it keeps (others are not its to change). */
  async function membersOf(role: Role) {
    const { items } = await users.list({ where: and(eq(columnOf(role), true), eq(usersTable.managedBy, DIRECTORY)) });
    return items;
  }

  return {
    async createUser(body: unknown): Promise<UserRow> {
      const state = userStateOf(body);
      const domain = state.userName.slice(state.userName.lastIndexOf('@') + 1);
      if (rules.emailDomains.length > 0 && !rules.emailDomains.includes(domain))
        throw new ScimError(400, 'invalidValue', outsideDomainsMessage(state.userName, rules.emailDomains));
      if (await users.findByEmail(state.userName))
        throw new ScimError(409, 'uniqueness', `${state.userName} is already a user of the portal.`);
      return asScim(() =>
        userAdmin.addUser({
          email: state.userName,
          actor: SCIM_ACTOR,
          directory: { externalId: state.externalId, suspended: !state.active },
        }),
      );
    },

    getUser: userById,

    async listUsers(query: ListQuery) {
      const parsed = query.filter?.trim() ? parseFilter(query.filter) : undefined;
      const startIndex = Math.max(1, query.startIndex ?? 1);
      const count = query.count ?? 100;
      // What a directory asks before every create: one address, read by its key alone (the allowlist's
      // prepared lookup), with no count query and no page.
      const address = parsed && singleUserName(parsed);
      if (address !== undefined) {
        const row = await users.findByEmail(address);
        const rows = row && startIndex === 1 ? [row] : [];
        return { rows: count === 0 ? [] : rows, total: row ? 1 : 0, startIndex };
      }
      const filter = parsed && userFilterSql(parsed);
      const sortBy = query.sortBy ? stripSchema(query.sortBy).toLowerCase() : 'username';
      const descending = query.sortOrder === 'descending';
      const sort =
        sortBy === 'meta.created' ? (descending ? '-added' : 'added') : descending ? '-email' : ('email' as const);
      const { items, total } = await users.list({
        where: filter,
        limit: Math.max(count, 1),
        offset: startIndex - 1,
        sort,
      });
      return { rows: count === 0 ? [] : items, total, startIndex };
    },

    async replaceUser(id: string, body: unknown): Promise<UserRow> {
      const row = await keptUserById(id);
      return applyState(row, userStateOf(body));
    },

    async patchUser(id: string, operations: Operation[]): Promise<UserRow> {
      const row = await keptUserById(id);
      return applyState(row, applyUserPatch(stateOfRow(row), operations));
    },

    async deleteUser(id: string): Promise<void> {
      const row = await keptUserById(id);
      await asScim(() => userAdmin.removeUser({ email: row.email, actor: SCIM_ACTOR, byDirectory: true }));
    },

    /**
     * Hands a row the portal's administrators added over to the directory (the CLI's `users adopt`): from
     * then on the directory changes and removes it, and the admin screen no longer does. Audited with the
     * operator as the actor, through the same service as the directory's own updates.
     */
    async adopt(input: { email: string; actor: string }): Promise<'adopted' | 'already'> {
      const row = await users.findByEmail(input.email);
      if (!row) throw new DomainError('not-found', notOnListMessage(input.email));
      if (row.managedBy === DIRECTORY) return 'already';
      await userAdmin.setDirectoryState({
        email: row.email,
        actor: input.actor,
        state: { externalId: row.scimExternalId, suspended: row.suspended },
      });
      return 'adopted';
    },

    roleById(id: string): Role {
      const role = roleNamed(id);
      if (!role) throw notFound('group', id);
      return role;
    },

    membersOf,

    /** The roles a Groups filter selects (few: evaluated here, members read only when the filter needs them). */
    async listRoles(filterText: string | undefined) {
      if (!filterText?.trim()) return [...ROLES];
      const filter = parseFilter(filterText);
      const chosen: Role[] = [];
      for (const role of ROLES) {
        const members = mentionsMembers(filter) ? await membersOf(role) : [];
        if (matchesGroup(filter, role, members)) chosen.push(role);
      }
      return chosen;
    },

    async patchGroup(role: Role, operations: Operation[]) {
      const current = await membersOf(role);
      const wanted = applyGroupPatch(new Set(current.map((row) => row.scimId)), operations, role.name);
      await setMembers(role, current, wanted);
    },

    async replaceGroup(role: Role, body: unknown) {
      const parsed = z
        .looseObject({
          displayName: z.string().optional(),
          members: z.array(z.object({ value: z.string() })).optional(),
        })
        .safeParse(body);
      if (!parsed.success)
        throw new ScimError(400, 'invalidSyntax', 'A Group is {"displayName", "members": [{"value"}]}.');
      if (parsed.data.displayName !== undefined && parsed.data.displayName.toLowerCase() !== role.name)
        throw new ScimError(400, 'mutability', `The portal's roles are fixed: this group stays "${role.name}".`);
      const current = await membersOf(role);
      await setMembers(role, current, new Set((parsed.data.members ?? []).map((member) => member.value)));
    },
  };

  /**
   * Sets a role's members to exactly `wanted` (user ids), one person at a time through the users domain;
   * additions first, so a swap of administrators never passes through "none".
   */
  async function setMembers(role: Role, current: UserRow[], wanted: Set<string>) {
    const currentIds = new Set(current.map((row) => row.scimId));
    const adding = [...wanted].filter((id) => !currentIds.has(id));
    const removing = current.filter((row) => !wanted.has(row.scimId));
    const added = adding.length > 0 ? await rowsWithIds(adding) : [];
    // A role the directory does not keep is the administrators' (on the admin screen): it neither gives nor
    // takes it, so it cannot undo what they gave either.
    if ((added.length > 0 || removing.length > 0) && !rules.assignableRoles.includes(role.name))
      throw new ScimError(403, undefined, notAssignableMessage(role.name));
    const notKept = added.find((row) => row.managedBy !== DIRECTORY);
    if (notKept) throw new ScimError(403, undefined, notKeptByDirectoryMessage(notKept.email));
    for (const row of added)
      await asScim(() => role.set(userAdmin, { email: row.email, member: true, actor: SCIM_ACTOR }));
    for (const row of removing)
      await asScim(() => role.set(userAdmin, { email: row.email, member: false, actor: SCIM_ACTOR }));
  }

  async function rowsWithIds(ids: string[]) {
    const valid = ids.filter((id) => /^[\da-f-]{36}$/i.test(id)).map((id) => id.toLowerCase());
    const { items } = valid.length
      ? await users.list({ where: inArray(usersTable.scimId, valid) })
      : { items: [] as UserRow[] };
    if (items.length !== ids.length) {
      const known = new Set(items.map((row) => row.scimId));
      const unknown = ids.find((id) => !known.has(id.toLowerCase()));
      throw new ScimError(400, 'invalidValue', `No user has the id "${unknown}": a member is a user of the portal.`);
    }
    return items.sort((a, b) => a.email.localeCompare(b.email));
  }
}

export type Provisioning = ReturnType<typeof createProvisioning>;

/** The address of a `userName eq "…"` filter, lower-cased as addresses are kept; undefined for any other. */
function singleUserName(filter: Filter): string | undefined {
  if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string') return undefined;
  return stripSchema(filter.attr).toLowerCase() === 'username' ? filter.value.trim().toLowerCase() : undefined;
}

function mentionsMembers(filter: Filter): boolean {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return mentionsMembers(filter.left) || mentionsMembers(filter.right);
    case 'not':
      return mentionsMembers(filter.filter);
    default:
      return stripSchema(filter.attr).toLowerCase().startsWith('members');
  }
}

/** A Groups filter on one role: displayName, id, externalId (none) and members (`members[value eq "…"]`). */
function matchesGroup(filter: Filter, role: Role, members: UserRow[]): boolean {
  switch (filter.kind) {
    case 'and':
      return matchesGroup(filter.left, role, members) && matchesGroup(filter.right, role, members);
    case 'or':
      return matchesGroup(filter.left, role, members) || matchesGroup(filter.right, role, members);
    case 'not':
      return !matchesGroup(filter.filter, role, members);
    case 'valuePath': {
      if (stripSchema(filter.attr).toLowerCase() !== 'members')
        throw new ScimError(400, 'invalidFilter', `"${filter.attr}" cannot be filtered on.`);
      return members.some((row) => matchesMember(filter.filter, row));
    }
    case 'present':
    case 'compare': {
      const attr = stripSchema(filter.attr).toLowerCase();
      if (attr === 'members' || attr === 'members.value')
        return filter.kind === 'present'
          ? members.length > 0
          : members.some((row) => compare(row.scimId, filter.op, filter.value));
      if (attr === 'externalid') return false;
      if (attr !== 'displayname' && attr !== 'id')
        throw new ScimError(
          400,
          'invalidFilter',
          `"${filter.attr}" cannot be filtered on: use displayName, id or members.`,
        );
      return filter.kind === 'present' || compare(role.name, filter.op, filter.value);
    }
  }
}

function matchesMember(filter: Filter, row: UserRow): boolean {
  if (filter.kind === 'and') return matchesMember(filter.left, row) && matchesMember(filter.right, row);
  if (filter.kind === 'or') return matchesMember(filter.left, row) || matchesMember(filter.right, row);
  if (filter.kind === 'not') return !matchesMember(filter.filter, row);
  if (filter.kind !== 'compare') throw new ScimError(400, 'invalidFilter', 'Members are filtered by value or display.');
  const attr = stripSchema(filter.attr).toLowerCase();
  if (attr === 'value') return compare(row.scimId, filter.op, filter.value);
  if (attr === 'display') return compare(row.email, filter.op, filter.value);
  throw new ScimError(400, 'invalidFilter', 'Members are filtered by value or display.');
}

function compare(actual: string, op: string, raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  const a = actual.toLowerCase();
  const b = raw.toLowerCase();
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    default:
      return a <= b;
  }
}
