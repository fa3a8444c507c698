import type { InvoiceFilter, InvoiceSearchResult, InvoiceSort } from '@portal/contract';
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
  search: Pick<InvoiceSearchRepository, 'search'>;
  rateLimits: Pick<RateLimits, 'invoiceSearches'>;
  audit: Pick<AuditTrail, 'queued'>;
}

/**
 * The finance role's search over every invoice, with an allowance per person and an audit entry per search
 * (who, which filters, how many matched), queued and folded per minute like downloads: the log says what a
 * sign-in looked for across all parcels, and a script paging through everything is stopped, not just paced.
 */
export function createAuditedInvoiceSearch(deps: AuditedSearchDeps) {
  return {
    async search(input: {
      user: string;
      filter: InvoiceFilter;
      sort: InvoiceSort;
      limit: number;
      offset: number;
    }): Promise<InvoiceSearchResult> {
      const { user, filter } = input;
      const event = { actor: user, action: 'invoice.search' as const, target: null };
      const waitMs = await deps.rateLimits.invoiceSearches.hit(user);
      if (waitMs !== undefined) {
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        deps.audit.queued({
          ...event,
          outcome: 'refused',
          detail: `search allowance spent; ${describeFilter(filter)}`,
        });
        throw new DomainError(
          'rate-limited',
          searchAllowanceMessage(deps.rateLimits.invoiceSearches.max, seconds),
          'invoice search allowance spent',
          { retryAfterSeconds: seconds },
        );
      }
      const result = await deps.search.search({
        filter,
        sort: input.sort,
        limit: input.limit,
        offset: input.offset,
      });
      deps.audit.queued({ ...event, outcome: 'ok', detail: `${describeFilter(filter)}; ${describeCount(result)}` });
      return result;
    },
  };
}

export type AuditedInvoiceSearch = ReturnType<typeof createAuditedInvoiceSearch>;
