import type { ArrivalNotice, InvoiceHistory, RecentInvoice } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { saveFile } from '@/lib/save-file';

// Checked by hand, not with the contract's zod schemas: these load on the invoice screen, which stays light.
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const listOf = <T>(key: string, valid: (item: Record<string, unknown>) => boolean) => ({
  parse(value: unknown): T[] {
    const list = isObject(value) ? value[key] : undefined;
    if (!Array.isArray(list) || !list.every((item) => isObject(item) && valid(item))) {
      throw new Error(`Unexpected ${key} response`);
    }
    return list as T[];
  },
});

const recentParser = listOf<RecentInvoice>(
  'invoices',
  (item) => typeof item.parcelCode === 'string' && typeof item.openedAt === 'string',
);
const versionsParser = listOf<InvoiceHistory['versions'][number]>(
  'versions',
  (item) =>
    typeof item.id === 'number' &&
    typeof item.receivedAt === 'string' &&
    typeof item.receivedFrom === 'string' &&
    typeof item.current === 'boolean' &&
    Array.isArray(item.warnings),
);
const noticesParser = listOf<ArrivalNotice>(
  'notices',
  (item) => typeof item.id === 'number' && typeof item.parcelCode === 'string' && typeof item.expiresAt === 'string',
);
const noticeParser = {
  parse(value: unknown): ArrivalNotice {
    if (!isObject(value) || typeof value.id !== 'number' || typeof value.expiresAt !== 'string') {
      throw new Error('Unexpected arrival notice response');
    }
    return value as unknown as ArrivalNotice;
  },
};

/** GET /recent-invoices, once the menu is opened: the person's own last invoices. */
export function useRecentInvoices(enabled: boolean) {
  const api = useApiClient();
  const { uid } = useCurrentUser();
  return useQuery(
    queryOptions({
      queryKey: ['recent-invoices', uid],
      queryFn: async ({ signal }) =>
        (await api.request('/recent-invoices', { auth: true, schema: recentParser, signal })).data,
      enabled,
      retry: false,
      staleTime: 0,
      gcTime: 0,
    }),
  );
}

/** GET /invoices/:parcelCode/versions, once the history is opened. */
export function useInvoiceHistory(parcelCode: string) {
  const api = useApiClient();
  const { uid } = useCurrentUser();
  return useQuery(
    queryOptions({
      queryKey: ['invoice-history', uid, parcelCode],
      queryFn: async ({ signal }) =>
        (
          await api.request(`/invoices/${encodeURIComponent(parcelCode)}/versions`, {
            auth: true,
            schema: versionsParser,
            signal,
          })
        ).data,
      retry: false,
      staleTime: 0,
      gcTime: 0,
    }),
  );
}

/** One version's PDF or XML, saved under `<code>-version-<id>.<part>`. */
export async function downloadVersion(api: ApiClient, parcelCode: string, versionId: number, part: 'pdf' | 'xml') {
  const { data } = await api.request<Blob>(
    `/invoices/${encodeURIComponent(parcelCode)}/versions/${versionId}/${part}`,
    { auth: true, blob: true },
  );
  // Typed by what was asked for, so the browser saves it instead of showing it as a page of this origin.
  saveFile(data, `${parcelCode}-version-${versionId}.${part}`, part === 'pdf' ? 'application/pdf' : 'application/xml');
}

export const ARRIVAL_NOTICES_KEY = 'arrival-notices';

/** GET /arrival-notices: the person's own waiting requests. */
export function useArrivalNotices(enabled: boolean) {
  const api = useApiClient();
  const { uid } = useCurrentUser();
  return useQuery(
    queryOptions({
      queryKey: [ARRIVAL_NOTICES_KEY, uid],
      queryFn: async ({ signal }) =>
        (await api.request('/arrival-notices', { auth: true, schema: noticesParser, signal })).data,
      enabled,
      retry: false,
      staleTime: 0,
    }),
  );
}

export async function requestArrivalNotice(api: ApiClient, parcelCode: string): Promise<ArrivalNotice> {
  const { data } = await api.request('/arrival-notices', {
    method: 'POST',
    auth: true,
    json: { parcelCode },
    schema: noticeParser,
  });
  return data;
}

export async function cancelArrivalNotice(api: ApiClient, id: number): Promise<void> {
  await api.request(`/arrival-notices/${id}`, { method: 'DELETE', auth: true });
}
