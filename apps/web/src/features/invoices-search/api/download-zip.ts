import { ZIP_COUNT_HEADER, ZIP_EXPECTED_BYTES_HEADER, type InvoiceZipBody } from '@portal/contract';
import type { ApiClient } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';

export interface ZipProgress {
  received: number;
  /** About the whole ZIP's size, as the server estimated it; null when it did not say. */
  expected: number | null;
  count: number | null;
}

/**
 * POST /invoices/zip, read as it streams so the page can show how far it is, then saved as one file. The
 * body is kept in memory until the end (a few tens of MB for 500 invoices): a browser has no portable way to
 * write a POST's answer to disk as it arrives.
 */
export async function downloadInvoicesZip(
  api: ApiClient,
  body: InvoiceZipBody,
  onProgress: (progress: ZipProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const { data, headers } = await api.request<ReadableStream<Uint8Array> | null>('/invoices/zip', {
    method: 'POST',
    auth: true,
    json: body,
    stream: true,
    signal,
  });
  const expectedHeader = Number(headers.get(ZIP_EXPECTED_BYTES_HEADER));
  const countHeader = Number(headers.get(ZIP_COUNT_HEADER));
  const expected = Number.isFinite(expectedHeader) && expectedHeader > 0 ? expectedHeader : null;
  const count = Number.isFinite(countHeader) && countHeader > 0 ? countHeader : null;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, expected, count });
  if (data) {
    const reader = data.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      onProgress({ received, expected, count });
    }
  }
  const disposition = headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'invoices.zip';
  saveFile(new Blob(chunks as BlobPart[], { type: 'application/zip' }), name);
}
