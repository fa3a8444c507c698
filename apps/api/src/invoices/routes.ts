import { invoiceQuerySchema, invoiceStoredSchema, parcelCodeSchema } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { DomainError } from '../domain-error.ts';
import { sendInvoiceBytes } from '../http/send-invoice-bytes.ts';
import type { InvoiceBytes } from './invoice-access.ts';

/** A PDF (plain or hybrid) or an XML-only e-invoice; what it is is read from the bytes, not the type. */
export const INVOICE_TYPES = ['application/pdf', 'application/octet-stream', 'application/xml', 'text/xml'];
const INVOICE_BODY_MESSAGE =
  'The request body must be the invoice: a PDF (Content-Type: application/pdf) or an XML e-invoice (Content-Type: application/xml).';

export interface InvoiceRoutesOptions {
  maxInvoiceBytes: number;
}

/** GET /invoice (open one) and PUT /invoices/:parcelCode (store one). */
const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, options) => {
  // The body is handed to ingestion as a stream, which enforces its size while it reads it.
  app.addContentTypeParser(INVOICE_TYPES, (_request, payload, done) => done(null, payload));
  const { invoiceAccess, ingestInvoice } = app.domain;

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
    // Not an async handler: when every check and the bytes are answered from memory (every download of an
    // invoice after its first), the PDF is sent there and then, without a promise or a microtask.
    (request, reply) => {
      const { parcelCode } = request.query;
      const opening = invoiceAccess.openAtOnce({ user: requireCaller(request).email, parcelCode, part: 'pdf' });
      if (opening instanceof Promise) {
        // Resolved with the reply, a thenable Fastify then waits on until a streamed body (a file too large to
        // keep in memory) is sent, as an async handler's `return reply` does; its types list no reply here.
        return opening.then((pdf) => sendPdf(reply, parcelCode, pdf)) as Promise<unknown> as Promise<void>;
      }
      sendPdf(reply, parcelCode, opening);
      return undefined;
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
          uploadedBy: request.serviceCaller ? 'service' : requireCaller(request).email,
        });
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

/** Set only once the invoice is found: a refusal is JSON like every other. */
function sendPdf<R extends FastifyReply>(reply: R, parcelCode: string, pdf: InvoiceBytes): R {
  reply
    .type('application/pdf')
    .header('cache-control', 'no-store')
    // The code matched [A-Za-z0-9_-], so it is safe inside the quoted filename.
    .header('content-disposition', `inline; filename="${parcelCode}.pdf"`);
  sendInvoiceBytes(reply, pdf);
  return reply;
}

export default invoiceRoutes;
