import { invoiceSearchResultSchema, type InvoiceSearchResult } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { apiQueryOf, type InvoiceSearchParams } from '../hooks/use-invoice-search-params';

/** GET /invoices: one page of the finance user's search. */
export async function searchInvoices(
  api: ApiClient,
  params: InvoiceSearchParams,
  signal?: AbortSignal,
): Promise<InvoiceSearchResult> {
  const { data } = await api.request(`/invoices?${apiQueryOf(params).toString()}`, {
    auth: true,
    schema: invoiceSearchResultSchema,
    signal,
  });
  return data;
}

export function useInvoiceSearch(params: InvoiceSearchParams) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['invoices-search', params] as const,
    queryFn: ({ signal }) => searchInvoices(api, params, signal),
    // Paging keeps the rows on screen until the next ones arrive, instead of a blank table.
    placeholderData: keepPreviousData,
    retry: false,
  });
}
