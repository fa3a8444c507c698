import {
  invoiceHistorySchema,
  invoiceVersionParamsSchema,
  parcelCodeSchema,
  recentInvoicesSchema,
} from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { sendInvoiceBytes } from '../http/send-invoice-bytes.ts';
import { isSteppedUpAdminOrFinance } from '../http/stepped-up.ts';
import { historyForHolderOfCode } from './history-view.ts';

/**
 * An invoice as a record: every version it had (GET /invoices/:parcelCode/versions) and each one's PDF and XML,
 * for the same signed-in people as the current invoice, under the same allowances and audit (invoice-access.ts);
 * and the caller's own "Recently opened" list (GET /recent-invoices).
 */
const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { invoiceAccess, recentInvoices } = app.domain;

  app.get(
    '/recent-invoices',
    {
      config: { access: 'user' },
      schema: {
        summary: 'The invoices the caller opened last',
        description:
          'The caller’s own last 20 invoices (by their PDF being opened), newest first; only invoices still there ' +
          'to open are listed. Nothing about anyone else.',
        tags: ['invoices'],
        response: { 200: recentInvoicesSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const invoices = await recentInvoices.list(requireCaller(request).email);
      return reply.header('cache-control', 'no-store').send({ invoices });
    },
  );

  app.get(
    '/invoices/:parcelCode/versions',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Every version of a parcel’s invoice',
        description:
          'Newest first: when each was received and from whom, its format, amounts, payment accounts and the ' +
          'change guard’s warnings it raised; `current` marks the one GET /invoice answers. For everyone who may ' +
          'open the invoice: needs a download allowance left without spending one, and an unknown code spends ' +
          'one of the unknown-parcel allowance, as on the PDF. An administrator or a finance user who confirmed ' +
          'their passkey in this browser sees who sent each version (an e-mail, `service` for the ingestion ' +
          'token, or the CLI’s operator label) and every version’s payment accounts; everyone else sees the kind ' +
          'of sender (`service`, `administrator` or `operator`) and the current version’s accounts only.',
        tags: ['invoices'],
        params: z.object({ parcelCode: parcelCodeSchema }),
        response: { 200: invoiceHistorySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { parcelCode } = request.params;
      const history = await invoiceAccess.open({ user: requireCaller(request).email, parcelCode, part: 'history' });
      const wholeRecord = await isSteppedUpAdminOrFinance(app, request);
      return reply.header('cache-control', 'no-store').send(wholeRecord ? history : historyForHolderOfCode(history));
    },
  );

  for (const part of ['pdf', 'xml'] as const) {
    app.get(
      `/invoices/:parcelCode/versions/:versionId/${part}`,
      {
        config: { access: 'user' },
        schema: {
          summary: part === 'pdf' ? 'The PDF of one version of an invoice' : 'The XML of one version of an invoice',
          description:
            (part === 'pdf'
              ? 'The PDF as GET /invoice answered it while this version was current (for an XML-only invoice, its rendering). '
              : 'The e-invoice XML of this version, byte for byte; 404 for a plain PDF. ') +
            'Counts as a download and is audited with the version. A version whose bytes are not the current ' +
            'ones only for an administrator or a finance user who confirmed their passkey in this browser ' +
            '(403 otherwise).',
          tags: ['invoices'],
          params: invoiceVersionParamsSchema,
          response: { 200: z.custom<Buffer | Readable>(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const { parcelCode, versionId } = request.params;
        const bytes = await invoiceAccess.open({
          user: requireCaller(request).email,
          parcelCode,
          part,
          versionId,
          earlierVersions: await isSteppedUpAdminOrFinance(app, request),
        });
        reply
          .type(part === 'pdf' ? 'application/pdf' : 'application/xml')
          .header('cache-control', 'no-store')
          // The code matched [A-Za-z0-9_-] and the id is a number: both safe inside the quoted filename.
          .header('content-disposition', `attachment; filename="${parcelCode}-version-${versionId}.${part}"`);
        return sendInvoiceBytes(reply, bytes);
      },
    );
  }
};

export default historyRoutes;
