import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /audit (issue 4). */
const auditRoutes: FastifyPluginAsyncZod = async () => {};

export default auditRoutes;
