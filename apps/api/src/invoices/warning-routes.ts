import { invoiceWarningAcknowledgedSchema, invoiceWarningParamsSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';

/**
 * POST /invoices/:parcelCode/warnings/:warningId/acknowledge: the second person's acknowledgement of a
 * change-guard warning. Admins only (with a recent passkey confirmation, like every admin call); the
 * uploader of the version that raised it is refused. Every attempt is audited.
 */
const warningRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/invoices/:parcelCode/warnings/:warningId/acknowledge',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Acknowledge a change-guard warning on an invoice (a second administrator)',
        description:
          'Clears one warning listed in GET /invoices/:parcelCode `warnings`. 403 when the caller uploaded the ' +
          'version that raised it (another administrator must look), 404 for a warning this invoice does not ' +
          'have, 409 when it was acknowledged already. No body.',
        tags: ['invoices'],
        params: invoiceWarningParamsSchema,
        response: { 200: invoiceWarningAcknowledgedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const by = request.caller?.email;
      if (!by) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
      const { parcelCode, warningId } = request.params;
      const acknowledged = await app.domain.acknowledgeInvoiceWarning({ parcelCode, warningId, by });
      return reply.header('cache-control', 'no-store').send(acknowledged);
    },
  );
};

export default warningRoutes;
