import { invoiceFactsSchema, parcelCodeSchema } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { sendInvoiceBytes } from '../http/send-invoice-bytes.ts';

/**
 * GET /invoices/:parcelCode (the facts read from an e-invoice) and GET /invoices/:parcelCode/xml (its XML):
 * for the same signed-in users as the PDF, under the same allowances and written to the same audit log
 * (invoice-access.ts decides all three).
 */
const eInvoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { invoiceAccess } = app.domain;

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
          'has acknowledged yet. Needs a download allowance left, without spending one; a code without an invoice ' +
          'spends one of the unknown-parcel allowance, as on the PDF.',
        tags: ['invoices'],
        params: z.object({ parcelCode: parcelCodeSchema }),
        response: { 200: invoiceFactsSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.params;
      const facts = await invoiceAccess.open({ user: requireCaller(request).email, parcelCode, part: 'facts' });
      return reply.header('cache-control', 'no-store').send(facts);
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
      const xml = await invoiceAccess.open({ user: requireCaller(request).email, parcelCode, part: 'xml' });
      reply
        .type('application/xml')
        .header('cache-control', 'no-store')
        // The code matched [A-Za-z0-9_-], so it is safe inside the quoted filename.
        .header('content-disposition', `attachment; filename="${parcelCode}.xml"`);
      return sendInvoiceBytes(reply, xml);
    },
  );
};

export default eInvoiceRoutes;
