import { z } from 'zod';
import { parsePath, stripSchema, type Filter } from './filter.ts';
import { ScimError } from './scim-error.ts';
import { PATCH_OP } from './scim-schemas.ts';

/** What the portal keeps of a User, and so what a PUT or PATCH can change. */
export interface UserState {
  userName: string;
  externalId: string | null;
  active: boolean;
}

type Op = 'add' | 'replace' | 'remove';
export interface Operation {
  op: Op;
  path: string | undefined;
  value: unknown;
}

const patchBodySchema = z.object({
  schemas: z.array(z.string()),
  Operations: z
    .array(z.object({ op: z.string(), path: z.string().optional(), value: z.unknown().optional() }))
    .min(1)
    .max(1000),
});

/**
 * A PatchOp body (RFC 7644 §3.5.2). `op` is read case-insensitively: Entra ID sends "Replace", "Add".
 */
export function parsePatchBody(body: unknown): Operation[] {
  const parsed = patchBodySchema.safeParse(body);
  if (!parsed.success)
    throw new ScimError(
      400,
      'invalidSyntax',
      'A PATCH body is {"schemas": ["…PatchOp"], "Operations": [{"op", "path", "value"}, …]}.',
    );
  if (!parsed.data.schemas.includes(PATCH_OP))
    throw new ScimError(400, 'invalidSyntax', `A PATCH body names the schema ${PATCH_OP}.`);
  return parsed.data.Operations.map((operation) => {
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(
        400,
        'invalidSyntax',
        `"${operation.op}" is not a PATCH operation: use add, replace or remove.`,
      );
    if (op !== 'remove' && operation.value === undefined)
      throw new ScimError(400, 'invalidSyntax', `An ${op} operation needs a value.`);
    if (op === 'remove' && operation.path === undefined)
      throw new ScimError(400, 'noTarget', 'A remove operation needs a path.');
    return { op, path: operation.path, value: operation.value };
  });
}

/**
 * The User attributes the portal does not keep (names, titles, the enterprise extension, a directory's own
 * extensions): accepted and left aside, so a directory's default attribute mapping works unchanged.
 */
const NOT_KEPT = new Set([
  'name',
  'displayname',
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'phonenumbers',
  'ims',
  'photos',
  'addresses',
  'entitlements',
  'roles',
  'x509certificates',
  'password',
  'emails',
]);

export const RENAME_MESSAGE =
  "userName is the person's e-mail address, which is how the portal knows them; it cannot be changed. A new address is a new user: remove this one and provision the new address.";

/** `true`, `false`, or the strings Entra ID's older PATCH forms send ("True", "False"). */
export function booleanOf(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, 'invalidValue', `${name} is true or false.`);
}

function externalIdOf(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value === 'string' && value.length <= 256) return value;
  throw new ScimError(400, 'invalidValue', 'externalId is a string of at most 256 characters.');
}

/** One attribute of a User set to `value` (add and replace alike: every kept attribute is single-valued). */
export function setUserAttribute(state: UserState, name: string, value: unknown): UserState {
  const path = parsePath(name);
  if (path.attr.startsWith('urn:')) return state; // an extension's attribute (enterprise, a directory's own)
  if (path.filter || path.sub) {
    if (NOT_KEPT.has(path.attr)) return state;
    throw new ScimError(400, 'invalidPath', `"${name}" is not an attribute the portal keeps.`);
  }
  switch (path.attr) {
    case 'active':
      return { ...state, active: booleanOf(value, 'active') };
    case 'externalid':
      return { ...state, externalId: externalIdOf(value) };
    case 'username':
      if (typeof value !== 'string' || value.trim().toLowerCase() !== state.userName)
        throw new ScimError(400, 'mutability', RENAME_MESSAGE);
      return state;
    case 'groups':
      throw new ScimError(400, 'mutability', "A user's groups are the portal's roles: change them through /Groups.");
    case 'id':
    case 'meta':
    case 'schemas':
      return state;
    default:
      if (NOT_KEPT.has(path.attr)) return state;
      throw new ScimError(400, 'invalidPath', `"${name}" is not an attribute of a User.`);
  }
}

/** Applies a User PATCH to what the portal keeps of the user. */
export function applyUserPatch(state: UserState, operations: Operation[]): UserState {
  let next = state;
  for (const { op, path, value } of operations) {
    if (op === 'remove') {
      const target = parsePath(path!);
      if (target.attr === 'externalid' && !target.filter && !target.sub) next = { ...next, externalId: null };
      else if (target.attr === 'active' || target.attr === 'username')
        throw new ScimError(
          400,
          'mutability',
          `${path} cannot be removed${target.attr === 'active' ? ': set it to false' : ''}.`,
        );
      else if (!NOT_KEPT.has(target.attr) && !target.attr.startsWith('urn:'))
        throw new ScimError(400, 'invalidPath', `"${path}" is not an attribute of a User.`);
    } else if (path === undefined) {
      // A value object without a path (Okta, and Entra ID's "active": false): each key is a path of its own.
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new ScimError(400, 'invalidSyntax', `An ${op} without a path takes an object of attributes.`);
      for (const [key, each] of Object.entries(value)) next = setUserAttribute(next, key, each);
    } else {
      next = setUserAttribute(next, path, value);
    }
  }
  return next;
}

/** The member ids a list of `{ "value": "<id>" }` names. */
function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = (member as { value?: unknown } | null)?.value;
    if (typeof id !== 'string') throw new ScimError(400, 'invalidValue', 'A member is {"value": "<user id>"}.');
    return id;
  });
}

/** The member ids a `members[value eq "…"]` filter names (the forms directories send: eq, joined by or). */
function idsInFilter(filter: Filter): string[] {
  if (filter.kind === 'or') return [...idsInFilter(filter.left), ...idsInFilter(filter.right)];
  if (filter.kind === 'compare' && filter.op === 'eq' && stripSchema(filter.attr).toLowerCase() === 'value')
    return [String(filter.value)];
  throw new ScimError(400, 'invalidFilter', 'Members are removed by id: members[value eq "<user id>"].');
}

/**
 * Applies a Group PATCH to its member ids: add, remove (by filter, by value list, or all), replace. The
 * role's name is fixed: a displayName is accepted only unchanged.
 */
export function applyGroupPatch(members: Set<string>, operations: Operation[], roleName: string): Set<string> {
  const next = new Set(members);
  const sameName = (value: unknown) => {
    if (typeof value !== 'string' || value.toLowerCase() !== roleName)
      throw new ScimError(400, 'mutability', `The portal's roles are fixed: this group stays "${roleName}".`);
  };
  const apply = (op: Op, attr: string, value: unknown) => {
    if (attr === 'displayname') return sameName(value);
    if (attr === 'id' || attr === 'schemas' || attr === 'meta' || attr === 'externalid') return;
    if (attr !== 'members') throw new ScimError(400, 'invalidPath', `"${attr}" is not an attribute of a Group.`);
    if (op === 'replace') next.clear();
    for (const id of memberIds(value)) next.add(id);
  };
  for (const { op, path, value } of operations) {
    if (op === 'remove') {
      const target = parsePath(path!);
      if (target.attr !== 'members') throw new ScimError(400, 'mutability', `${path} cannot be removed.`);
      if (target.filter) for (const id of idsInFilter(target.filter)) next.delete(id);
      else if (value === undefined) next.clear();
      else for (const id of memberIds(value)) next.delete(id);
    } else if (path === undefined) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new ScimError(400, 'invalidSyntax', `An ${op} without a path takes an object of attributes.`);
      for (const [key, each] of Object.entries(value)) apply(op, parsePath(key).attr, each);
    } else {
      const target = parsePath(path);
      if (target.filter || target.sub) throw new ScimError(400, 'invalidPath', `"${path}" cannot be set on a Group.`);
      apply(op, target.attr, value);
    }
  }
  return next;
}
