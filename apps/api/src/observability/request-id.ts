import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { trustedPeer, type TrustProxy } from './trusted-peer.ts';

/** What a proxy's id may look like before it is trusted into logs and headers: short, no spaces or markup. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * One id per request: the trusted proxy's X-Request-Id when it is well-formed (so nginx's log line and ours
 * share it), otherwise a random UUID. Without a trusted proxy a client's header is ignored.
 */
export function requestIdGenerator(options: { trustProxy: TrustProxy }) {
  const fromTrustedProxy = trustedPeer(options.trustProxy);
  return (request: IncomingMessage): string => {
    const given = fromTrustedProxy(request.socket.remoteAddress) ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
  };
}

/** Echoes the id in the X-Request-Id response header, so a caller can quote it. */
export default fp(
  async (app) => {
    // A callback hook, not an async one: it runs on every request, and a promise per request is garbage.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-id' },
);
