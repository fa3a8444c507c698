import type { RecentInvoice } from '@portal/contract';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoiceOpens, invoices } from '../db/schema.ts';

/** How many invoices a person's "Recently opened" list keeps. */
export const RECENT_INVOICES = 20;

/**
 * A person's own "Recently opened" list: one row per invoice they opened (its PDF), newest first, trimmed to
 * the newest few on every open, so the table stays a few dozen rows a person whatever they open.
 */
export function createRecentInvoices(db: Database) {
  return {
    async recordOpen(userEmail: string, parcelCode: string, at = new Date()): Promise<void> {
      // Two single statements, not a transaction: this runs off the answer's path, often right as the
      // database goes away, and a transaction caught by an outage held its pooled connection for good (the
      // pool then never closed). The trim is idempotent: a lost one is done by the next open.
      await db
        .insert(invoiceOpens)
        .values({ userEmail, parcelCode, openedAt: at })
        .onConflictDoUpdate({ target: [invoiceOpens.userEmail, invoiceOpens.parcelCode], set: { openedAt: at } });
      const newest = db
        .select({ parcelCode: invoiceOpens.parcelCode })
        .from(invoiceOpens)
        .where(eq(invoiceOpens.userEmail, userEmail))
        .orderBy(desc(invoiceOpens.openedAt), desc(invoiceOpens.parcelCode))
        .limit(RECENT_INVOICES);
      await db
        .delete(invoiceOpens)
        .where(and(eq(invoiceOpens.userEmail, userEmail), notInArray(invoiceOpens.parcelCode, newest)));
    },

    /**
     * The list as the person sees it: only invoices that are still there to open (the join), with what names
     * one at a glance. Nothing of anyone else's is read.
     */
    async list(userEmail: string): Promise<RecentInvoice[]> {
      const rows = await db
        .select({
          parcelCode: invoiceOpens.parcelCode,
          openedAt: invoiceOpens.openedAt,
          format: invoices.format,
          facts: invoices.facts,
        })
        .from(invoiceOpens)
        .innerJoin(invoices, eq(invoices.parcelCode, invoiceOpens.parcelCode))
        .where(eq(invoiceOpens.userEmail, userEmail))
        .orderBy(desc(invoiceOpens.openedAt), desc(invoiceOpens.parcelCode))
        .limit(RECENT_INVOICES);
      return rows.map((row) => ({
        parcelCode: row.parcelCode,
        openedAt: row.openedAt.toISOString(),
        format: row.format,
        invoiceNumber: row.facts?.invoiceNumber ?? null,
        typeCode: row.facts?.typeCode ?? null,
        sellerName: row.facts?.sellerName ?? null,
        amountDue: row.facts?.amountDue ?? null,
        currency: row.facts?.currency ?? null,
      }));
    },

    /** For tests and the operator: how many rows a person has (bounded by RECENT_INVOICES). */
    async countFor(userEmail: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(invoiceOpens)
        .where(eq(invoiceOpens.userEmail, userEmail));
      return row?.count ?? 0;
    },
  };
}

export type RecentInvoices = ReturnType<typeof createRecentInvoices>;
