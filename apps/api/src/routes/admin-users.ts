import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /users, POST /users/:email, POST /users, DELETE /users/:email, PUT /users/:email (issue 4). */
const adminUserRoutes: FastifyPluginAsyncZod = async () => {};

export default adminUserRoutes;
