import { auditEntryListSchema, auditQuerySchema, TOTAL_COUNT_HEADER } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';

/** GET /audit: newest first, one page at a time, the total in a header for the pager; by parcel code or user. */
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Read the audit log, newest first',
        tags: ['audit'],
        querystring: auditQuerySchema,
        response: { 200: auditEntryListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const [entries, total] = await Promise.all([
        app.domain.audit.list(request.query),
        app.domain.audit.count(request.query),
      ]);
      reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', 'no-store');
      return entries;
    },
  );
};

export default auditRoutes;
