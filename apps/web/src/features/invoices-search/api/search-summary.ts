import { invoiceSearchSummarySchema, type InvoiceFilter, type InvoiceSearchSummary } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';

/** GET /invoices/search/summary: the whole search in sums, per currency and month. */
export async function searchSummary(
  api: ApiClient,
  filter: InvoiceFilter,
  signal?: AbortSignal,
): Promise<InvoiceSearchSummary> {
  const query = new URLSearchParams();
  for (const [field, value] of Object.entries(filter)) if (value) query.set(field, value);
  const { data } = await api.request(`/invoices/search/summary?${query.toString()}`, {
    auth: true,
    schema: invoiceSearchSummarySchema,
    signal,
  });
  return data;
}

/**
 * The sums of the search on screen. Asked for once the page of results has arrived (`enabled`), so the list
 * comes first; paging and ordering do not change the sums, so they are not asked for again.
 */
export function useInvoiceSearchSummary(filter: InvoiceFilter, enabled: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['invoices-search-summary', filter] as const,
    queryFn: ({ signal }) => searchSummary(api, filter, signal),
    enabled,
    retry: false,
  });
}
