import { and, eq, gt, gte, isNotNull, like, lt, lte, ne, not, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { users } from '../db/schema.ts';
import { ROLES, columnOf } from './roles.ts';
import { stripSchema, type CompareOp, type Filter, type FilterValue } from './filter.ts';
import { ScimError } from './scim-error.ts';

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

const unsupported = (detail: string) => new ScimError(400, 'invalidFilter', detail);

/** A string attribute: `caseExact` false compares the lower-cased value (addresses are stored lower-cased). */
function compareText(column: PgColumn, op: CompareOp, raw: FilterValue, caseExact: boolean): SQL {
  if (typeof raw !== 'string') throw unsupported(`Compare ${column.name} with a quoted string.`);
  const value = caseExact ? raw : raw.toLowerCase();
  switch (op) {
    case 'eq':
      return eq(column, value);
    case 'ne':
      return ne(column, value);
    case 'co':
      return like(column, `%${escapeLike(value)}%`);
    case 'sw':
      return like(column, `${escapeLike(value)}%`);
    case 'ew':
      return like(column, `%${escapeLike(value)}`);
    case 'gt':
      return gt(column, value);
    case 'ge':
      return gte(column, value);
    case 'lt':
      return lt(column, value);
    case 'le':
      return lte(column, value);
  }
}

function compareDate(column: PgColumn, op: CompareOp, raw: FilterValue): SQL {
  const date = typeof raw === 'string' ? new Date(raw) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw unsupported('Compare a date with a quoted ISO 8601 time.');
  const compare = { eq, ne, gt, ge: gte, lt, le: lte } as const;
  if (!(op in compare)) throw unsupported(`Dates are compared with eq, ne, gt, ge, lt or le, not ${op}.`);
  return compare[op as keyof typeof compare](column, date);
}

function compareBoolean(column: PgColumn, op: CompareOp, raw: FilterValue, negate: boolean): SQL {
  if (typeof raw !== 'boolean' || (op !== 'eq' && op !== 'ne'))
    throw unsupported(`${column.name} is compared with eq or ne and true or false.`);
  return eq(column, (op === 'eq') !== negate ? raw : !raw);
}

/** The address in `emails` (work, primary) is userName: a filter on it is a filter on the e-mail. */
function emailCondition(sub: string, op: CompareOp | 'pr', value: FilterValue): SQL {
  if (sub === 'value') return op === 'pr' ? isNotNull(users.email) : compareText(users.email, op, value, false);
  if (sub === 'type') return op === 'pr' || (op === 'eq' && value === 'work') ? sql`true` : sql`false`;
  if (sub === 'primary') return op === 'pr' || (op === 'eq' && value === true) ? sql`true` : sql`false`;
  throw unsupported(`emails.${sub} cannot be filtered on.`);
}

function condition(attrName: string, op: CompareOp | 'pr', value: FilterValue, within?: string): SQL {
  const path = stripSchema(attrName).toLowerCase();
  const full = within ? `${within}.${path}` : path;
  const [attr, sub] = full.split('.') as [string, string | undefined];
  if (attr === 'emails') return emailCondition(sub ?? 'value', op, value);
  if (attr === 'groups') {
    // `groups.value eq "admin"`: the people who have that role.
    if (sub !== undefined && sub !== 'value' && sub !== 'display')
      throw unsupported(`groups.${sub} cannot be filtered on.`);
    if (op !== 'eq' || typeof value !== 'string') throw unsupported('Filter groups with eq and a role name.');
    const role = ROLES.find((each) => each.name === value.toLowerCase());
    return role ? eq(columnOf(role), true) : sql`false`;
  }
  if (sub !== undefined && attr !== 'meta') throw unsupported(`"${attrName}" cannot be filtered on.`);
  switch (attr) {
    case 'username':
      return op === 'pr' ? isNotNull(users.email) : compareText(users.email, op, value, false);
    case 'externalid':
      return op === 'pr' ? isNotNull(users.scimExternalId) : compareText(users.scimExternalId, op, value, true);
    case 'id':
      if (op === 'pr') return sql`true`;
      if (op !== 'eq' && op !== 'ne') throw unsupported('id is compared with eq or ne.');
      if (typeof value !== 'string' || !UUID.test(value)) return op === 'eq' ? sql`false` : sql`true`;
      return op === 'eq' ? eq(users.scimId, value.toLowerCase()) : ne(users.scimId, value.toLowerCase());
    case 'active':
      // Stored as its opposite, `suspended`.
      return op === 'pr' ? sql`true` : compareBoolean(users.suspended, op, value, true);
    case 'meta':
      if (sub === 'created') return op === 'pr' ? sql`true` : compareDate(users.createdAt, op, value);
      if (sub === 'lastmodified') return op === 'pr' ? sql`true` : compareDate(users.updatedAt, op, value);
      throw unsupported(`"${attrName}" cannot be filtered on.`);
    default:
      throw unsupported(
        `"${attrName}" cannot be filtered on: use userName, externalId, id, active, emails, groups or meta.created/lastModified.`,
      );
  }
}

/** A SCIM filter on Users as a condition on the users table (every supported attribute is a column). */
export function userFilterSql(filter: Filter, within?: string): SQL {
  switch (filter.kind) {
    case 'and':
      return and(userFilterSql(filter.left, within), userFilterSql(filter.right, within))!;
    case 'or':
      return or(userFilterSql(filter.left, within), userFilterSql(filter.right, within))!;
    case 'not':
      return not(userFilterSql(filter.filter, within));
    case 'present':
      return condition(filter.attr, 'pr', null, within);
    case 'compare':
      return condition(filter.attr, filter.op, filter.value, within);
    case 'valuePath': {
      if (within) throw unsupported('A value path cannot be nested in another.');
      const attr = stripSchema(filter.attr).toLowerCase();
      const inner = userFilterSql(filter.filter, attr);
      return filter.then ? and(inner, userFilterSql(filter.then, attr))! : inner;
    }
  }
}
