import { auditEntryListSchema, type AuditEntry, type AuditEventGroup } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { pageParams, totalOf } from './paging';
import { adminKeys } from './query-keys';

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
}

/**
 * Narrows the log to one parcel code and/or one user (what they did, or what was done to them), and to one
 * group of events (the server lists every event without one).
 */
export interface AuditFilter {
  parcelCode?: string;
  user?: string;
  events?: AuditEventGroup;
}

/** GET /audit: newest first, one page at a time, optionally filtered. */
export async function getAuditPage(
  api: ApiClient,
  page: number,
  filter: AuditFilter = {},
  signal?: AbortSignal,
): Promise<AuditPage> {
  const params = pageParams(page);
  if (filter.parcelCode) params.set('parcelCode', filter.parcelCode);
  if (filter.user) params.set('user', filter.user);
  if (filter.events) params.set('events', filter.events);
  const { data, headers } = await api.request(`/audit?${params}`, {
    auth: true,
    schema: auditEntryListSchema,
    signal,
  });
  return { entries: data, total: totalOf(headers, data.length) };
}

export const auditPageQueryOptions = (api: ApiClient, page: number, filter: AuditFilter = {}) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'audit', { page, ...filter }] as const,
    queryFn: ({ signal }) => getAuditPage(api, page, filter, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useAuditPage(page: number, filter: AuditFilter = {}) {
  const api = useApiClient();
  return useQuery(auditPageQueryOptions(api, page, filter));
}
