import { invoiceQuerySchema, invoiceStoredSchema, parcelCodeSchema } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { DomainError } from '../plugins/errors.ts';
import { ingestInvoice } from './ingest.ts';
import { createOpenInvoice, findCurrentInvoice } from './open-invoice.ts';

export interface InvoiceRoutesOptions {
  maxInvoiceBytes: number;
  /** `x-accel-redirect`: nginx sends the bytes from the shared store once this route has said yes. */
  invoiceDelivery: 'direct' | 'x-accel-redirect';
}

/**
 * nginx's internal location over the content-addressed store (deploy/nginx/portal.conf.template): a blob
 * lives at <first two hex digits>/<sha256>, as in the blob store.
 */
export const ACCEL_BLOB_LOCATION = '/_invoice-blobs/';
export const accelPathOf = (sha256: string) => `${ACCEL_BLOB_LOCATION}${sha256.slice(0, 2)}/${sha256}`;

/** GET /invoice (open one) and PUT /invoices/:parcelCode (store one). */
const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, options) => {
  // The body goes to the blob store as a stream: never buffered whole, and its size is enforced there.
  app.addContentTypeParser(['application/pdf', 'application/octet-stream'], (_request, payload, done) =>
    done(null, payload),
  );
  const openInvoice = createOpenInvoice({ invoicesRepository: app.invoicesRepository, blobStore: app.blobStore });

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
      // Set only once the invoice is found: a refusal is JSON like every other.
      const asDownload = () =>
        reply
          .type('application/pdf')
          .header('cache-control', 'no-store')
          // The code matched [A-Za-z0-9_-] above, so it is safe inside the quoted filename.
          .header('content-disposition', `inline; filename="${parcelCode}.pdf"`);
      if (options.invoiceDelivery === 'x-accel-redirect') {
        // nginx keeps these headers, replaces the body with the file and never passes this header on.
        const invoice = await findCurrentInvoice(app.invoicesRepository, parcelCode);
        return asDownload().header('x-accel-redirect', accelPathOf(invoice.sha256)).send(Buffer.alloc(0));
      }
      const blob = await openInvoice(parcelCode);
      return asDownload().header('content-length', blob.size).send(blob.body);
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
        throw new DomainError('invalid', 'The request body must be the invoice PDF (Content-Type: application/pdf).');
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
        // The rest of a refused body is never read: close the connection after the answer instead.
        if (error instanceof DomainError && !(request.body as Readable).readableEnded) {
          reply.header('connection', 'close');
        }
        throw error;
      }
    },
  );
};

export default invoiceRoutes;
