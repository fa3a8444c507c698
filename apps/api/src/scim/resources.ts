import { createHash } from 'node:crypto';
import type { UserRow } from '../users/repository.ts';
import { rolesOf, type Role } from './roles.ts';
import { GROUP_SCHEMA, USER_SCHEMA } from './scim-schemas.ts';
import { stripSchema } from './filter.ts';

/** A resource's version: a weak ETag over what it says (RFC 7644 §3.14), so any change gives a new one. */
export function versionOf(resource: object): string {
  const hash = createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 22);
  return `W/"${hash}"`;
}

/** An allowlist row as a SCIM User; `base` is the service provider's absolute URL (…/scim/v2). */
export function toScimUser(row: UserRow, base: string) {
  const body = {
    schemas: [USER_SCHEMA],
    id: row.scimId,
    ...(row.scimExternalId === null ? {} : { externalId: row.scimExternalId }),
    userName: row.email,
    active: !row.suspended,
    emails: [{ value: row.email, type: 'work', primary: true }],
    groups: rolesOf(row).map((role) => ({
      value: role.name,
      display: role.name,
      $ref: `${base}/Groups/${role.name}`,
      type: 'direct',
    })),
  };
  const location = `${base}/Users/${row.scimId}`;
  return {
    ...body,
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location,
      version: versionOf({ ...body, lastModified: row.updatedAt.toISOString() }),
    },
  };
}

export type ScimUser = ReturnType<typeof toScimUser>;

/** A role as a SCIM Group, with its members (omitted when the caller excluded them: they may be many). */
export function toScimGroup(role: Role, members: UserRow[] | undefined, base: string) {
  const body = {
    schemas: [GROUP_SCHEMA],
    id: role.name,
    displayName: role.name,
    ...(members
      ? {
          members: members.map((row) => ({
            value: row.scimId,
            display: row.email,
            $ref: `${base}/Users/${row.scimId}`,
            type: 'User',
          })),
        }
      : {}),
  };
  return {
    ...body,
    meta: {
      resourceType: 'Group',
      location: `${base}/Groups/${role.name}`,
      version: versionOf(body),
    },
  };
}

/** Always returned, whatever `attributes` or `excludedAttributes` ask (RFC 7643 §7 "returned": always). */
const ALWAYS = new Set(['schemas', 'id', 'meta']);

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5), on top-level attributes: a sub-attribute named
 * (`emails.value`) keeps or drops its whole attribute's first level, which is what directories ask for.
 */
export function project<T extends Record<string, unknown>>(
  resource: T,
  query: { attributes?: string | undefined; excludedAttributes?: string | undefined },
): Partial<T> {
  const names = (list: string | undefined) =>
    list
      ?.split(',')
      .map((name) => stripSchema(name.trim()).split('.')[0]!.toLowerCase())
      .filter(Boolean);
  const only = names(query.attributes);
  const without = names(query.excludedAttributes);
  if (!only?.length && !without?.length) return resource;
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => {
      if (ALWAYS.has(key)) return true;
      const lower = key.toLowerCase();
      if (only?.length) return only.includes(lower);
      return !without!.includes(lower);
    }),
  ) as Partial<T>;
}
