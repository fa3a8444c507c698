import { auditEntryListSchema, type AuditEntry } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { pageParams, totalOf } from './paging';
import { adminKeys } from './query-keys';

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
}

/** GET /audit: newest first, one page at a time. */
export async function getAuditPage(api: ApiClient, page: number, signal?: AbortSignal): Promise<AuditPage> {
  const { data, headers } = await api.request(`/audit?${pageParams(page)}`, {
    auth: true,
    schema: auditEntryListSchema,
    signal,
  });
  return { entries: data, total: totalOf(headers, data.length) };
}

export const auditPageQueryOptions = (api: ApiClient, page: number) =>
  queryOptions({
    queryKey: adminKeys.auditPage(page),
    queryFn: ({ signal }) => getAuditPage(api, page, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useAuditPage(page: number) {
  const api = useApiClient();
  return useQuery(auditPageQueryOptions(api, page));
}
