import fp from 'fastify-plugin';
import type { Domain } from '../domain.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's domain, built and started by whoever created the app (server, test, benchmark). */
    domain: Domain;
  }
}

/** The one way routes and hooks reach the domain: the caller built it, starts it and closes it. */
export default fp<{ domain: Domain }>(
  async (app, options) => {
    app.decorate('domain', options.domain);
  },
  { name: 'domain' },
);
