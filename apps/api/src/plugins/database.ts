import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
  }
}

/** The handle is opened by the caller (server or test) so tests can share one database per file. */
export default fp<{ database: DatabaseHandle }>(
  async (app, options) => {
    app.decorate('database', options.database);
  },
  { name: 'database' },
);
