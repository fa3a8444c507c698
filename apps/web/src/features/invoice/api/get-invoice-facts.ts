import type { InvoiceFacts } from '@portal/contract';
import { INVOICE_FACT_TERM_NAMES, INVOICE_FORMATS, INVOICE_WARNING_KINDS } from '@portal/contract/invoice-terms';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { saveFile } from '@/lib/save-file';

// The contract's lists, without its schemas: the answer is checked by hand below.
const FORMATS: readonly string[] = INVOICE_FORMATS;
const WARNING_KINDS: readonly string[] = INVOICE_WARNING_KINDS;
const TERMS = [...INVOICE_FACT_TERM_NAMES, 'bankDetailsChangedAt', 'amountChangedAt'] as const;

const stringOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

const isWarning = (value: unknown) => {
  const warning = value as Record<string, unknown> | null;
  return (
    typeof warning?.id === 'number' &&
    WARNING_KINDS.includes(warning.kind as string) &&
    typeof warning.raisedAt === 'string' &&
    typeof warning.detail === 'string'
  );
};

/**
 * Checked by hand, not with the contract's zod schema: the invoice screen is the page staff open from a
 * link, and zod would add its weight to that page for one object.
 */
export const invoiceFactsParser = {
  parse(value: unknown): InvoiceFacts {
    const body = value as Record<string, unknown> | null;
    const valid =
      typeof body?.parcelCode === 'string' &&
      FORMATS.includes(body.format as string) &&
      (body.syntax === null || body.syntax === 'cii' || body.syntax === 'ubl') &&
      TERMS.every((term) => stringOrNull(body[term])) &&
      (body.lineCount === null || typeof body.lineCount === 'number') &&
      typeof body.uploadedAt === 'string' &&
      typeof body.hasXml === 'boolean' &&
      typeof body.pdfIsRendering === 'boolean' &&
      (body.paymentAccounts === null ||
        (Array.isArray(body.paymentAccounts) &&
          body.paymentAccounts.every((account) => typeof account === 'string'))) &&
      Array.isArray(body.warnings) &&
      body.warnings.every(isWarning);
    if (!valid) throw new Error('Unexpected invoice facts response');
    return body as unknown as InvoiceFacts;
  },
};

/** GET /invoices/:parcelCode: what the invoice says, read from its XML at ingestion. */
export async function getInvoiceFacts(api: ApiClient, parcelCode: string, signal?: AbortSignal) {
  const { data } = await api.request(`/invoices/${encodeURIComponent(parcelCode)}`, {
    auth: true,
    schema: invoiceFactsParser,
    signal,
  });
  return data;
}

/**
 * The facts of an invoice whose PDF was found (null until then): the panel is beside the frame, and the frame
 * is what a person came for. A failure here shows nothing more than a missing panel (the PDF's own request
 * reports errors).
 */
export function useInvoiceFacts(parcelCode: string | null) {
  const api = useApiClient();
  const { uid } = useCurrentUser();
  return useQuery(
    queryOptions({
      queryKey: ['invoice-facts', uid, parcelCode],
      queryFn: ({ signal }) => getInvoiceFacts(api, parcelCode ?? '', signal),
      enabled: parcelCode !== null,
      retry: false,
      staleTime: 0,
      gcTime: 0,
    }),
  );
}

/** POST /invoices/:parcelCode/warnings/:id/acknowledge: an admin other than the uploader has looked. */
export async function acknowledgeInvoiceWarning(api: ApiClient, parcelCode: string, warningId: number) {
  await api.request(`/invoices/${encodeURIComponent(parcelCode)}/warnings/${warningId}/acknowledge`, {
    method: 'POST',
    auth: true,
  });
}

/** GET /invoices/:parcelCode/xml, saved under `<parcel code>.xml`. */
export async function downloadInvoiceXml(api: ApiClient, parcelCode: string): Promise<void> {
  const { data } = await api.request<Blob>(`/invoices/${encodeURIComponent(parcelCode)}/xml`, {
    auth: true,
    blob: true,
  });
  // Typed as XML whatever came back, so the browser saves it instead of showing it as a page of this origin.
  saveFile(data, `${parcelCode}.xml`, 'application/xml');
}
