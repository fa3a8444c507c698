import type { ScimRoleName } from './role-names.ts';
import { users } from '../db/schema.ts';
import type { UserRow } from '../users/repository.ts';
import type { UserAdmin } from '../users/user-admin.ts';

/** The users table's yes/no columns: a role is one of them. */
type FlagColumn = { [K in keyof UserRow]: UserRow[K] extends boolean ? K : never }[keyof UserRow];

/** A role of the portal as a SCIM Group: its name (also its id), its column on users, and how it is given. */
export interface Role {
  name: ScimRoleName;
  column: FlagColumn;
  set(userAdmin: UserAdmin, input: { email: string; member: boolean; actor: string }): Promise<UserRow>;
}

/**
 * Every role the directory may assign, one line each; Groups, the users' `groups` and the membership filters
 * are all read from this list. A role given by the directory is changed through the same service as on the
 * admin screen (audit, the last-admin rule, the change notice to every instance).
 */
export const ROLES: readonly Role[] = [
  {
    name: 'admin',
    column: 'admin',
    set: (userAdmin, { email, member, actor }) =>
      userAdmin.setAdmin({ email, admin: member, actor, byDirectory: true }),
  },
  {
    name: 'finance',
    column: 'finance',
    set: (userAdmin, { email, member, actor }) =>
      userAdmin.setFinance({ email, finance: member, actor, byDirectory: true }),
  },
];

export const roleNamed = (name: string) => ROLES.find((role) => role.name === name.toLowerCase());
export const columnOf = (role: Role) => users[role.column];
export const rolesOf = (row: UserRow) => ROLES.filter((role) => row[role.column]);
