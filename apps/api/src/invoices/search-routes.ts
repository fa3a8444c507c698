import {
  invoiceSearchQuerySchema,
  invoiceSearchResultSchema,
  invoiceSearchSummaryQuerySchema,
  invoiceSearchSummarySchema,
  invoiceZipBodySchema,
  ZIP_COUNT_HEADER,
  ZIP_EXPECTED_BYTES_HEADER,
} from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';

/**
 * GET /invoices (search every current invoice) and POST /invoices/zip (many at once): the finance role's
 * Invoices page. Everyone else keeps the spec's one invoice per parcel code (GET /invoice).
 */
const invoiceSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/invoices',
    {
      config: { access: 'finance' },
      schema: {
        summary: 'Search the invoices (finance role)',
        description:
          'Every filter is optional and they all apply together: the start of a parcel code or invoice number, ' +
          'part of the seller or buyer name (3 letters at least), issue-date and amount (BT-112) ranges with both ' +
          "ends included, the format, `bankDetailsChanged=true` and the stored EN 16931 check's outcome " +
          '(`validation=valid|warnings|invalid`). Sorted by amount, invoices are grouped by currency (A to Z) and ' +
          'ordered by amount within each. `total` is exact up to 10,000; above, ' +
          '`totalIsAtLeast` is true. Pages go 10,000 invoices deep. Like every finance call it needs a recent ' +
          'passkey confirmation of this sign-in in this browser (403 `step-up-required` without); each search ' +
          'is audited and spends one of RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE (429 when spent).',
        tags: ['invoices'],
        querystring: invoiceSearchQuerySchema,
        response: { 200: invoiceSearchResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { sort, limit, offset, ...filter } = request.query;
      reply.header('cache-control', 'no-store');
      return app.domain.auditedInvoiceSearch.search({
        user: requireCaller(request).email,
        filter,
        sort: sort ?? '-received',
        limit: limit ?? 50,
        offset: offset ?? 0,
      });
    },
  );

  app.get(
    '/invoices/search/summary',
    {
      config: { access: 'finance' },
      schema: {
        summary: 'Sum a whole search of the invoices, per currency and month (finance role)',
        description:
          'The filters of GET /invoices (no order, no page); the answer covers every match, not a page: per ' +
          'currency the exact total of BT-112 (a decimal string) and how many invoices it sums, the same per ' +
          'month of the issue date (`YYYY-MM`, oldest first), and how many matches have no amount (plain PDFs). ' +
          'Amounts are never summed across currencies. The sums of a search the caller made with the same ' +
          'filters in the same minute of the allowance are part of it (one sums call per search): they spend ' +
          'nothing more and are not audited again. Any other call spends one of ' +
          'RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE and is audited as a search; it needs a recent passkey ' +
          'confirmation like every finance call (403 `step-up-required`).',
        tags: ['invoices'],
        querystring: invoiceSearchSummaryQuerySchema,
        response: { 200: invoiceSearchSummarySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return app.domain.auditedInvoiceSearch.summary({ user: requireCaller(request).email, filter: request.query });
    },
  );

  app.post(
    '/invoices/zip',
    {
      config: { access: 'finance' },
      schema: {
        summary: 'Download many invoices as one ZIP (finance role)',
        description:
          'Body: `{ "parcelCodes": [...] }` (1 to 500) or `{ "search": { ...the filters of GET /invoices }, "sort": ' +
          '"-received" }` (its first 500). The ZIP holds `invoices.csv` (the facts, one line per invoice) and, per ' +
          'invoice, `CODE/CODE.pdf` and `CODE/CODE.xml` where there is one; it is streamed as it is built. Each ' +
          "invoice spends one download of the allowance and one of the day's INVOICE_EXPORTS_PER_DAY, all before " +
          'the first byte (429 when fewer are left). Needs a recent passkey confirmation (403 `step-up-required`).',
        tags: ['invoices'],
        body: invoiceZipBodySchema,
        response: { 200: z.custom<Readable>(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const zip = await app.domain.invoiceZip.prepare({ user: requireCaller(request).email, body: request.body });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('application/zip')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="invoices-${day}.zip"`)
        .header(ZIP_COUNT_HEADER, String(zip.count))
        .header(ZIP_EXPECTED_BYTES_HEADER, String(zip.expectedBytes))
        .send(zip.stream);
    },
  );
};

export default invoiceSearchRoutes;
