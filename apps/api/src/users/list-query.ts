import type { UserSort, UserStatus } from '@portal/contract';
import { and, asc, count, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';

export interface UserListOptions {
  search?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  sort?: UserSort | undefined;
  status?: UserStatus | undefined;
  /** A condition of the caller's own on top (SCIM's filter, compiled to SQL in scim/filter-sql.ts). */
  where?: SQL | undefined;
}

const statusFilter: Record<UserStatus, SQL> = {
  admin: eq(users.admin, true),
  activated: eq(users.activated, true),
  invited: eq(users.activated, false),
};

/** Each order ends on the e-mail, so a page boundary never falls between equal dates differently twice. */
const orderBy: Record<Exclude<UserSort, 'email'>, SQL[]> = {
  '-email': [desc(users.email)],
  added: [asc(users.createdAt), asc(users.email)],
  '-added': [desc(users.createdAt), desc(users.email)],
};

/**
 * Up to this many matches, a searched page is read through the trigram index and sorted; with more, the
 * matches are dense enough that walking the e-mail order finds a page sooner. Measured at 100,000 rows.
 */
const FEW_MATCHES = 5_000;

/** Escapes LIKE wildcards so a search for "a_b" matches that text, not "a" + any + "b". */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

/**
 * Lists allowed users in e-mail order, optionally searched ("contains", case-insensitive) and paged.
 * Unpaged, it returns everything with no count query. Paged, it counts first, then picks the page query
 * by that count: a planner left alone walks the whole primary key for a rare term it thinks is common.
 */
export async function listUsers(db: Database, options: UserListOptions = {}, tuning = { fewMatches: FEW_MATCHES }) {
  const search = options.search?.trim().toLowerCase();
  const where = and(
    search ? like(users.email, `%${escapeLike(search)}%`) : undefined,
    options.status ? statusFilter[options.status] : undefined,
    options.where,
  );
  const offset = options.offset ?? 0;
  if (options.sort && options.sort !== 'email') return listInOrder(db, where, orderBy[options.sort], options);
  if (options.limit === undefined && offset === 0) {
    const items = await db.select().from(users).where(where).orderBy(asc(users.email));
    return { items, total: items.length };
  }
  const [totals] = await db.select({ total: count() }).from(users).where(where);
  const total = totals?.total ?? 0;
  if (offset >= total) return { items: [], total };
  const items =
    search && total <= tuning.fewMatches
      ? await pageOfFewMatches(db, where, options.limit, offset)
      : await pageInEmailOrder(db, where, { limit: options.limit, offset, total });
  return { items, total };
}

async function pageOfFewMatches(db: Database, where: SQL | undefined, limit: number | undefined, offset: number) {
  // MATERIALIZED plans the search on its own, so PostgreSQL reads the few matches through the trigram
  // index instead of walking the primary key in e-mail order hoping to meet them early.
  // Both drivers (node-postgres, PGlite) answer raw queries with { rows }.
  const result = (await db.execute(sql`
    with matches as materialized (select ${users.email} from ${users} where ${where})
    select email from matches order by email ${limit === undefined ? sql`` : sql`limit ${limit}`} offset ${offset}`)) as unknown as {
    rows: { email: string }[];
  };
  const emails = result.rows.map((row) => row.email);
  if (emails.length === 0) return [];
  return db.select().from(users).where(inArray(users.email, emails)).orderBy(asc(users.email));
}

function pageInEmailOrder(
  db: Database,
  where: SQL | undefined,
  page: { limit: number | undefined; offset: number; total: number },
) {
  const { limit, offset, total } = page;
  // A deferred join: the offset is skipped over the primary key alone (index-only where the visibility
  // map allows), and only the page's own rows are read whole. A page past the middle is reached from the
  // end, so the last page costs what the first does.
  const after = limit === undefined ? 0 : Math.max(0, total - offset - limit);
  const fromEnd = limit !== undefined && after < offset;
  const keys = db
    .select({ email: users.email })
    .from(users)
    .where(where)
    .orderBy(fromEnd ? desc(users.email) : asc(users.email))
    .offset(fromEnd ? after : offset)
    .$dynamic();
  const size = limit === undefined ? undefined : Math.min(limit, total - offset);
  return db
    .select()
    .from(users)
    .where(inArray(users.email, size === undefined ? keys : keys.limit(size)))
    .orderBy(asc(users.email));
}

/** Any order but e-mail A–Z, or a status filter in it: one plain query; the email-order tuning is for A–Z. */
async function listInOrder(db: Database, where: SQL | undefined, order: SQL[], options: UserListOptions) {
  const [totals] = await db.select({ total: count() }).from(users).where(where);
  const query = db
    .select()
    .from(users)
    .where(where)
    .orderBy(...order)
    .offset(options.offset ?? 0)
    .$dynamic();
  const items = await (options.limit === undefined ? query : query.limit(options.limit));
  return { items, total: totals?.total ?? 0 };
}
