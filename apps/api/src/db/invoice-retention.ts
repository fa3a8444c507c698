import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** SQLSTATE of the triggers' refusal (migration 0016). */
export const RETENTION_SQLSTATE = 'P0R01';

/** The refusal of a retention trigger, however deep the driver wrapped it. */
export function isRetentionRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    if ((current as { code?: unknown }).code === RETENTION_SQLSTATE) return true;
  }
  return false;
}

/** The retention the database enforces now (years), or undefined when off. */
export async function invoiceRetentionYears(db: Pick<Database, 'execute'>): Promise<number | undefined> {
  const result = (await db.execute(sql`select years from invoice_retention where id = 1`)) as unknown as {
    rows: { years: number | null }[];
  };
  return result.rows[0]?.years ?? undefined;
}

/**
 * Makes the database enforce at least `years`: raised when the configuration asks for more, never lowered or
 * switched off by a process started without it (a CLI run on a machine with another environment would
 * otherwise lift the guard). Lowering it is an operator's deliberate act in SQL (docs/operations.md).
 */
export async function raiseInvoiceRetention(db: Pick<Database, 'execute'>, years: number | undefined): Promise<void> {
  if (!years) return;
  await db.execute(sql`insert into invoice_retention (id, years) values (1, ${years})
    on conflict (id) do update set years = excluded.years, set_at = now()
    where invoice_retention.years is null or invoice_retention.years < excluded.years`);
}

/** Sets the retention to exactly `years` (undefined: off), lowering it too: for tests and deliberate tools only. */
export async function setInvoiceRetention(db: Pick<Database, 'execute'>, years: number | undefined): Promise<void> {
  await db.execute(sql`insert into invoice_retention (id, years) values (1, ${years ?? null})
    on conflict (id) do update set years = excluded.years, set_at = now()`);
}
