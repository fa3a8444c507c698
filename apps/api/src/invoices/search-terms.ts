import type { StoredInvoiceFacts } from './e-invoice/stored-facts.ts';

/** A date the column takes: `YYYY-MM-DD` of a day that exists (the readers write that shape, but 2024-02-30 fits it). */
function dayOf(value: string | null | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value ? null : value;
}

/** An amount the numeric column takes, as written; anything else (a typo in the XML) stays unsearchable. */
const amountOf = (value: string | null | undefined): string | null =>
  value && /^[+-]?\d{1,15}(\.\d{1,6})?$/.test(value.trim()) ? value.trim() : null;

/**
 * The current invoice's searchable terms, from its facts: copied into columns of their own so the Invoices
 * page can search and sort 10 million of them by index. The same rule as migration 0011's backfill. The seller
 * and buyer names also name the invoice's parties: the database sets `seller_id`/`buyer_id` from them (migration
 * 0017's trigger), so a name written here is found by the name search whoever wrote it.
 */
export function searchTermsOf(facts: StoredInvoiceFacts | null | undefined) {
  return {
    invoiceNumber: facts?.invoiceNumber ?? null,
    sellerName: facts?.sellerName ?? null,
    buyerName: facts?.buyerName ?? null,
    issueDate: dayOf(facts?.issueDate),
    totalGross: amountOf(facts?.totalGross),
    currency: facts?.currency ?? null,
  };
}
