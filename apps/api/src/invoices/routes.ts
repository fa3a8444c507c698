import { invoiceQuerySchema, invoiceStoredSchema, parcelCodeSchema } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../http/error-responses.ts';
import { tooManyRequests } from '../rate-limits/http-guards.ts';
import { DomainError } from '../domain-error.ts';
import { findCurrentInvoice, pdfBlobOf } from './open-invoice.ts';
import { INGEST_BUSY_REASON, INGEST_RETRY_AFTER_SECONDS } from './ingest-slots.ts';

/** A PDF (plain or hybrid) or an XML-only e-invoice; what it is is read from the bytes, not the type. */
export const INVOICE_TYPES = ['application/pdf', 'application/octet-stream', 'application/xml', 'text/xml'];
const INVOICE_BODY_MESSAGE =
  'The request body must be the invoice: a PDF (Content-Type: application/pdf) or an XML e-invoice (Content-Type: application/xml).';

function signedInEmail(request: FastifyRequest) {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
  return request.caller.email;
}

export interface InvoiceRoutesOptions {
  maxInvoiceBytes: number;
  /** `x-accel-redirect`: nginx sends the bytes from the shared store once this route has said yes. */
  invoiceDelivery: 'direct' | 'x-accel-redirect';
}

/** GET /invoice (open one) and PUT /invoices/:parcelCode (store one). */
const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, options) => {
  // The body goes to the blob store as a stream: never buffered whole, and its size is enforced there.
  app.addContentTypeParser(INVOICE_TYPES, (_request, payload, done) => done(null, payload));
  const { openInvoice, ingestInvoice } = app.domain;

  app.get(
    '/invoice',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Open the invoice PDF of a parcel',
        tags: ['invoices'],
        querystring: invoiceQuerySchema,
        // Bytes and streams are sent as they are; Fastify never serializes them.
        response: { 200: z.custom<Buffer | Readable>(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.query;
      const user = signedInEmail(request);
      const limits = app.domain.rateLimits;
      // Counted in parallel with each other: the allowances cost one round trip, not two. This attempt holds
      // one of the unknown-parcel allowance until it is known to be found: concurrent guesses cannot all pass
      // a check that none of them has counted yet.
      const [downloadWaitMs, guess] = await Promise.all([
        limits.downloads.hit(user),
        limits.unknownParcels.reserve(user),
      ]);
      const waitMs = downloadWaitMs ?? guess.waitMs;
      if (waitMs !== undefined) {
        guess.settle(false);
        throw tooManyRequests(reply, waitMs);
      }
      // Behind nginx with X-Accel-Redirect, nginx sends the bytes: only the row is needed here.
      const viaProxy = options.invoiceDelivery === 'x-accel-redirect';
      let found;
      try {
        found = viaProxy
          ? pdfBlobOf(await findCurrentInvoice(app.domain.invoices, parcelCode))
          : await openInvoice(parcelCode);
      } catch (error) {
        const unknown = error instanceof DomainError && error.kind === 'not-found';
        guess.settle(unknown);
        if (unknown) {
          app.domain.auditWriter.add({
            actor: user,
            action: 'invoice.download',
            target: parcelCode,
            outcome: 'refused',
            detail: 'unknown parcel code',
          });
        }
        throw error;
      }
      guess.settle(false);
      // Queued, written in batches: the download never waits for the audit log.
      app.domain.auditWriter.add({
        actor: user,
        action: 'invoice.download',
        target: parcelCode,
        outcome: 'ok',
        detail: `sha256 ${found.sha256}`,
      });
      // Counted here, not from the answer: behind nginx the answer has no body and nginx sends the bytes.
      app.domain.metrics.invoiceDownloads.inc();
      app.domain.metrics.invoiceDownloadBytes.inc(found.size);
      // Set only once the invoice is found: a refusal is JSON like every other.
      const download = reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        // The code matched [A-Za-z0-9_-] above, so it is safe inside the quoted filename.
        .header('content-disposition', `inline; filename="${parcelCode}.pdf"`);
      if (found.body !== undefined) return download.header('content-length', found.size).send(found.body);
      // nginx keeps these headers, replaces the body with the blob (a file, or the object it fetches with a
      // presigned request) and never passes this header on.
      const internalPath = await app.domain.blobStore.accelRedirectPath(found.sha256);
      return download.header('x-accel-redirect', internalPath).send(Buffer.alloc(0));
    },
  );

  app.put(
    '/invoices/:parcelCode',
    {
      config: { access: 'admin-or-service' },
      bodyLimit: options.maxInvoiceBytes,
      // Before any parser: a JSON (or any other) body is refused for what it is, not half-parsed.
      preParsing: async (request) => {
        const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
        if (type && !INVOICE_TYPES.includes(type)) {
          throw new DomainError('unsupported-media-type', INVOICE_BODY_MESSAGE);
        }
      },
      schema: {
        summary: 'Store the invoice of a parcel (the ingestion service or an admin)',
        description:
          'Body: a PDF (`Content-Type: application/pdf`), plain or with its ZUGFeRD / Factur-X XML attached, or an ' +
          'XML-only e-invoice in CII or UBL 2.1 syntax (XRechnung, Peppol BIS Billing 3.0; `Content-Type: ' +
          'application/xml`), kept byte for byte. The EN 16931 terms are read and stored with the version. 201 when ' +
          'new, 200 when replaced or unchanged; `warnings` says why the XML attached to a PDF was not read (the PDF ' +
          'is stored all the same). Malformed, hostile or unknown XML is refused with 400, and so is a file that ' +
          'reading would cost more than its budget (a PDF built to inflate, a read past its memory or time). 503 ' +
          'with Retry-After while the instance already takes in MAX_CONCURRENT_INGESTS uploads.',
        tags: ['invoices'],
        params: z.object({ parcelCode: parcelCodeSchema }),
        response: { 200: invoiceStoredSchema, 201: invoiceStoredSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.params;
      if (!request.body) throw new DomainError('invalid', INVOICE_BODY_MESSAGE);
      try {
        const stored = await ingestInvoice({
          parcelCode,
          body: request.body as Readable,
          declaredSize: Number(request.headers['content-length'] ?? NaN),
          uploadedBy: request.serviceCaller ? 'service' : (request.caller?.email ?? 'unknown'),
        });
        return reply.code(stored.status === 'created' ? 201 : 200).send(stored);
      } catch (error) {
        // The rest of a refused body is never read: close the connection after the answer instead.
        if (error instanceof DomainError && !(request.body as Readable).readableEnded) {
          reply.header('connection', 'close');
        }
        if (error instanceof DomainError && error.reason === INGEST_BUSY_REASON) {
          reply.header('retry-after', String(INGEST_RETRY_AFTER_SECONDS));
        }
        throw error;
      }
    },
  );
};

export default invoiceRoutes;
