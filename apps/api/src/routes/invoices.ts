import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /invoice and PUT /invoices/:parcelCode (issue 3). */
const invoiceRoutes: FastifyPluginAsyncZod = async () => {};

export default invoiceRoutes;
