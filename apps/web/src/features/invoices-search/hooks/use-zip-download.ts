import type { InvoiceZipBody } from '@portal/contract';
import { useState } from 'react';
import { ApiError, useApiClient } from '@/lib/api-client';
import { downloadInvoicesZip, type ZipProgress } from '../api/download-zip';

export type ZipState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ZipProgress | null }
  | { kind: 'done'; count: number | null }
  | { kind: 'failed'; message: string };

/** One ZIP download at a time, with its progress, its outcome, and the server's reason when it refuses. */
export function useZipDownload() {
  const api = useApiClient();
  const [zip, setZip] = useState<ZipState>({ kind: 'idle' });
  const download = async (body: InvoiceZipBody) => {
    setZip({ kind: 'running', progress: null });
    let count: number | null = null;
    try {
      await downloadInvoicesZip(api, body, (progress) => {
        count = progress.count;
        setZip({ kind: 'running', progress });
      });
      setZip({ kind: 'done', count });
    } catch (error) {
      setZip({
        kind: 'failed',
        message:
          error instanceof ApiError && error.message
            ? error.message
            : 'The ZIP could not be downloaded. Please try again.',
      });
    }
  };
  return { zip, running: zip.kind === 'running', download };
}
