import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, useApiClient, type ApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { reportError } from '@/lib/error-reporting';

/** GET /invoice: the PDF for a parcel code. */
export async function getInvoice(api: ApiClient, parcelCode: string, signal?: AbortSignal): Promise<Blob> {
  try {
    const { data } = await api.request<Blob>(`/invoice?parcelCode=${encodeURIComponent(parcelCode)}`, {
      auth: true,
      blob: true,
      signal,
    });
    performance.mark('portal:invoice');
    // Typed as PDF whatever the response said, so the frame never renders the bytes as a same-origin page.
    return data.slice(0, data.size, 'application/pdf');
  } catch (error) {
    if (!(error instanceof ApiError) && (error as Error).name !== 'AbortError') reportError(error);
    throw error;
  }
}

/** Disabled (no request at all) while the code is missing. */
export const invoiceQueryOptions = (api: ApiClient, uid: string, parcelCode: string | null) =>
  queryOptions({
    // The user is part of the key: one person's invoice is never served from cache to the next.
    queryKey: ['invoice', uid, parcelCode],
    queryFn: ({ signal }) => getInvoice(api, parcelCode ?? '', signal),
    enabled: parcelCode !== null,
    // The API already retried once with a refreshed token; anything more is the user's Reload.
    retry: false,
    // Served no-store and personal: nothing of it outlives the screen.
    staleTime: 0,
    gcTime: 0,
  });

export function useInvoice(parcelCode: string | null) {
  const api = useApiClient();
  const { uid } = useCurrentUser();
  return useQuery(invoiceQueryOptions(api, uid, parcelCode));
}
