import { invoiceFactsSchema, parcelCodeSchema } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { tooManyRequests } from '../rate-limits/http-guards.ts';
import { DomainError } from '../domain-error.ts';
import { findCurrentInvoice, invoiceFactsOf, NO_INVOICE_MESSAGE } from './open-invoice.ts';

export interface EInvoiceRoutesOptions {
  /** `x-accel-redirect`: nginx sends the XML from the shared store once this route has said yes. */
  invoiceDelivery: 'direct' | 'x-accel-redirect';
}

/**
 * GET /invoices/:parcelCode (the facts read from an e-invoice) and GET /invoices/:parcelCode/xml (its XML):
 * for the same signed-in users as the PDF, under the same allowances and written to the same audit log.
 * Opening the facts beside the PDF is one look at one invoice, so it needs an allowance left but does not
 * spend one; the XML is a download of its own and counts as one. A code without an invoice counts against
 * the guessing allowance here as on the PDF's route.
 */
const eInvoiceRoutes: FastifyPluginAsyncZod<EInvoiceRoutesOptions> = async (app, options) => {
  const { openInvoiceXml, invoices, auditWriter, metrics } = app.domain;

  async function guarded<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    parcelCode: string,
    action: string,
    spendsDownload: boolean,
    open: () => Promise<T>,
  ): Promise<T> {
    const user = request.caller?.email;
    if (!user) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
    const limits = app.domain.rateLimits;
    const [downloadWaitMs, guessingWaitMs] = await Promise.all([
      spendsDownload ? limits.downloads.hit(user) : limits.downloads.spentFor(user),
      limits.unknownParcels.spentFor(user),
    ]);
    const waitMs = downloadWaitMs ?? guessingWaitMs;
    if (waitMs !== undefined) throw tooManyRequests(reply, waitMs);
    try {
      const opened = await open();
      auditWriter.add({ actor: user, action, target: parcelCode, outcome: 'ok', detail: null });
      return opened;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not-found') {
        const unknownCode = error.message === NO_INVOICE_MESSAGE;
        if (unknownCode) await limits.unknownParcels.hit(user);
        auditWriter.add({
          actor: user,
          action,
          target: parcelCode,
          outcome: 'refused',
          detail: unknownCode ? 'unknown parcel code' : 'no XML',
        });
      }
      throw error;
    }
  }

  app.get(
    '/invoices/:parcelCode',
    {
      config: { access: 'user' },
      schema: {
        summary: 'The EN 16931 facts of a parcel’s invoice',
        description:
          'What ingestion read from the current version: for a Factur-X / ZUGFeRD hybrid or an XML-only invoice ' +
          'the terms of its XML; for a plain PDF `format: "pdf"` and nulls. Amounts are decimal strings exactly ' +
          'as written, dates `YYYY-MM-DD`. `warnings` lists what the change guard raised and no second person ' +
          'has acknowledged yet. Needs a download allowance left, without spending one.',
        tags: ['invoices'],
        params: z.object({ parcelCode: parcelCodeSchema }),
        response: { 200: invoiceFactsSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.params;
      const invoice = await guarded(request, reply, parcelCode, 'invoice.facts', false, () =>
        findCurrentInvoice(invoices, parcelCode),
      );
      // Read fresh, never cached: an acknowledgement on another instance shows at once.
      const pending = await app.domain.invoiceWarnings.pending(parcelCode);
      return reply.header('cache-control', 'no-store').send(invoiceFactsOf(invoice, pending));
    },
  );

  app.get(
    '/invoices/:parcelCode/xml',
    {
      config: { access: 'user' },
      schema: {
        summary: 'The e-invoice XML of a parcel’s invoice',
        description:
          'The CII or UBL XML, byte for byte: the file attached to a hybrid PDF, or the XML-only invoice as ' +
          'received. 404 for a plain PDF. Counts as a download.',
        tags: ['invoices'],
        params: z.object({ parcelCode: parcelCodeSchema }),
        response: { 200: z.custom<Buffer | Readable>(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.params;
      const viaProxy = options.invoiceDelivery === 'x-accel-redirect';
      const found = await guarded(request, reply, parcelCode, 'invoice.download-xml', true, async () => {
        if (!viaProxy) return openInvoiceXml(parcelCode);
        const invoice = await findCurrentInvoice(invoices, parcelCode);
        if (!invoice.xmlSha256) return openInvoiceXml(parcelCode);
        return { sha256: invoice.xmlSha256, size: invoice.xmlSize ?? 0 };
      });
      metrics.invoiceDownloads.inc();
      metrics.invoiceDownloadBytes.inc(found.size);
      const download = reply
        .type('application/xml')
        .header('cache-control', 'no-store')
        // The code matched [A-Za-z0-9_-], so it is safe inside the quoted filename.
        .header('content-disposition', `attachment; filename="${parcelCode}.xml"`);
      if ('body' in found) return download.header('content-length', found.size).send(found.body);
      // As for the PDF: nginx fetches the blob (a file, or the object through a presigned request).
      const internalPath = await app.domain.blobStore.accelRedirectPath(found.sha256);
      return download.header('x-accel-redirect', internalPath).send(Buffer.alloc(0));
    },
  );
};

export default eInvoiceRoutes;
