import { createHash } from 'node:crypto';
import type { InvoiceFilter, InvoiceSearchResult, InvoiceSearchSummary, InvoiceSort } from '@portal/contract';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { InvoiceSearchRepository } from './search-repository.ts';

export const searchAllowanceMessage = (perMinute: number, seconds: number) =>
  `You have searched the invoices ${perMinute} times this minute, as often as one person may. ` +
  `Please wait ${seconds} seconds and try again.`;

/**
 * What a search asked for, for the audit log: each filter given, by name and value, in a fixed order. The
 * page and its order are left out, so paging through one search within a minute folds into one entry.
 */
export function describeFilter(filter: InvoiceFilter): string {
  const given = Object.entries(filter)
    .filter(([, value]) => value !== undefined && value !== '')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${JSON.stringify(String(value))}`);
  return given.length === 0 ? 'no filter' : given.join(', ');
}

const describeCount = (result: Pick<InvoiceSearchResult, 'total' | 'totalIsAtLeast'>) =>
  `${result.total}${result.totalIsAtLeast ? '+' : ''} ${result.total === 1 && !result.totalIsAtLeast ? 'result' : 'results'}`;

export interface AuditedSearchDeps {
  search: Pick<InvoiceSearchRepository, 'search' | 'summary'>;
  rateLimits: Pick<RateLimits, 'invoiceSearches' | 'store'>;
  audit: Pick<AuditTrail, 'queued'>;
  log: { warn(details: object, message: string): void };
}

/**
 * Where one person's searches of one filter are counted in the rate-limit store (every instance's), and the
 * sums they had without spending: the page's list and its sums may reach different instances.
 */
function sumsKeys(user: string, filter: InvoiceFilter) {
  const id = createHash('sha256')
    .update(`${user}\n${describeFilter(filter)}`)
    .digest('base64url');
  return { searched: `invoice-search-sums-owed:${id}`, taken: `invoice-search-sums-taken:${id}` };
}

/**
 * The finance role's search over every invoice, with an allowance per person and an audit entry per search
 * (who, which filters, how many matched), queued and folded per minute like downloads: the log says what a
 * sign-in looked for across all parcels, and a script paging through everything is stopped, not just paced.
 */
export function createAuditedInvoiceSearch(deps: AuditedSearchDeps) {
  const { store } = deps.rateLimits;
  const windowMs = deps.rateLimits.invoiceSearches.windowMs;

  /**
   * Whether these sums belong to a search the person made, of the very same filter, in this window of the
   * allowance (any instance): each such search pays for one sums call, never more, so a script asking for
   * sums over and over spends as before. Decided here from the caller's own account and the filters as
   * parsed, so nothing a caller sends can make sums free.
   */
  async function sumsPaidBySearch(user: string, filter: InvoiceFilter): Promise<boolean> {
    const keys = sumsKeys(user, filter);
    const searched = await store.peek(keys.searched, windowMs);
    if (searched === 0) return false;
    const { hits: taken } = await store.hit(keys.taken, windowMs);
    return taken <= searched;
  }

  /** Spends one of the person's searches this minute, or refuses (audited) when they are spent. */
  async function spendAllowance(user: string, filter: InvoiceFilter, what: string) {
    const waitMs = await deps.rateLimits.invoiceSearches.hit(user);
    if (waitMs === undefined) return;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    deps.audit.queued({
      actor: user,
      action: 'invoice.search',
      target: null,
      outcome: 'refused',
      detail: `${what}allowance spent; ${describeFilter(filter)}`,
    });
    throw new DomainError(
      'rate-limited',
      searchAllowanceMessage(deps.rateLimits.invoiceSearches.max, seconds),
      'invoice search allowance spent',
      { retryAfterSeconds: seconds },
    );
  }

  return {
    async search(input: {
      user: string;
      filter: InvoiceFilter;
      sort: InvoiceSort;
      limit: number;
      offset: number;
    }): Promise<InvoiceSearchResult> {
      const { user, filter } = input;
      await spendAllowance(user, filter, 'search ');
      const result = await deps.search.search({
        filter,
        sort: input.sort,
        limit: input.limit,
        offset: input.offset,
      });
      deps.audit.queued({
        actor: user,
        action: 'invoice.search',
        target: null,
        outcome: 'ok',
        detail: `${describeFilter(filter)}; ${describeCount(result)}`,
      });
      // Written before the answer leaves, so the page's sums call, made once the list has arrived, finds it.
      await store.hit(sumsKeys(user, filter).searched, windowMs).catch((error: unknown) =>
        // The sums of this search then spend a search of their own, as a call on its own does.
        deps.log.warn({ err: error }, 'could not note an invoice search for its sums'),
      );
      return result;
    },

    /**
     * The sums of a whole search (the Invoices page's month picture). The sums of a search the person just
     * made are part of that search: its allowance and its audit entry cover them. Asked for on their own
     * (another filter, a second time, no search before), they read every match, so they spend a search of
     * the allowance like a page does, and are audited as one, named as sums.
     */
    async summary(input: { user: string; filter: InvoiceFilter }): Promise<InvoiceSearchSummary> {
      const { user, filter } = input;
      if (await sumsPaidBySearch(user, filter)) return deps.search.summary(filter);
      await spendAllowance(user, filter, 'sums: search ');
      const summary = await deps.search.summary(filter);
      const summed = summary.currencies.reduce((count, currency) => count + currency.count, 0);
      deps.audit.queued({
        actor: user,
        action: 'invoice.search',
        target: null,
        outcome: 'ok',
        detail: `sums: ${describeFilter(filter)}; ${summed + summary.withoutAmount} invoices`,
      });
      return summary;
    },
  };
}

export type AuditedInvoiceSearch = ReturnType<typeof createAuditedInvoiceSearch>;
