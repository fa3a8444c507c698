import { invoiceQuerySchema, invoiceStoredSchema, parcelCodeSchema } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IngestRefusal, ingestInvoice } from '../invoices/ingest.ts';
import { createInvoiceReader } from '../invoices/invoice-reader.ts';
import { HttpError } from '../plugins/errors.ts';
import { errorResponses } from './error-responses.ts';

export interface InvoiceRoutesOptions {
  maxInvoiceBytes: number;
}

export const NO_INVOICE_MESSAGE = 'No invoice was found for this parcel code.';

// Invoices are typically tens to hundreds of KB: 64 MB keeps the hot ones, larger files always stream.
const READER_LIMITS = { maxCacheBytes: 64 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 };

/** GET /invoice and PUT /invoices/:parcelCode (issue 3). */
const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, options) => {
  // The body goes to the blob store as a stream: never buffered whole, and its size is enforced there.
  app.addContentTypeParser(['application/pdf', 'application/octet-stream'], (_request, payload, done) =>
    done(null, payload),
  );
  const reader = createInvoiceReader(app.blobStore, READER_LIMITS);

  app.get(
    '/invoice',
    {
      config: { access: 'user' },
      schema: {
        querystring: invoiceQuerySchema,
        // Bytes and streams are sent as they are; Fastify never serializes them.
        response: { 200: z.custom<Buffer | Readable>(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.query;
      const invoice = await app.invoicesRepository.findCurrent(parcelCode);
      if (!invoice) throw new HttpError(404, NO_INVOICE_MESSAGE);
      const blob = await reader.open(invoice.sha256, invoice.size);
      // The row is written only after its bytes, and bytes are never deleted: this is a broken store.
      if (!blob) throw new Error(`invoice ${parcelCode} names blob ${invoice.sha256}, which is missing`);
      return (
        reply
          .type('application/pdf')
          .header('cache-control', 'no-store')
          // The code matched [A-Za-z0-9_-] above, so it is safe inside the quoted filename.
          .header('content-disposition', `inline; filename="${parcelCode}.pdf"`)
          .header('content-length', blob.size)
          .send(blob.body)
      );
    },
  );

  app.put(
    '/invoices/:parcelCode',
    {
      config: { access: 'admin-or-service' },
      bodyLimit: options.maxInvoiceBytes,
      schema: {
        params: z.object({ parcelCode: parcelCodeSchema }),
        response: { 200: invoiceStoredSchema, 201: invoiceStoredSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.params;
      if (!request.body)
        throw new HttpError(400, 'The request body must be the invoice PDF (Content-Type: application/pdf).');
      try {
        const stored = await ingestInvoice(
          {
            blobStore: app.blobStore,
            invoicesRepository: app.invoicesRepository,
            auditRepository: app.auditRepository,
            maxBytes: options.maxInvoiceBytes,
          },
          {
            parcelCode,
            body: request.body as Readable,
            declaredSize: Number(request.headers['content-length'] ?? NaN),
            uploadedBy: request.serviceCaller ? 'service' : (request.caller?.email ?? 'unknown'),
          },
        );
        return reply.code(stored.status === 'created' ? 201 : 200).send(stored);
      } catch (error) {
        if (error instanceof IngestRefusal) {
          // The rest of a refused body is never read: close the connection after the answer instead.
          if (!(request.body as Readable).readableEnded) reply.header('connection', 'close');
          throw new HttpError(error.statusCode, error.message);
        }
        throw error;
      }
    },
  );
};

export default invoiceRoutes;
