import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { trustedPeer, type TrustProxy } from './trusted-peer.ts';

/** What a proxy's id may look like before it is trusted into logs and headers: short, no spaces or markup. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The ids this process gives its requests: UUID-shaped (8-4-4-4-12 hex digits), the first 20 digits drawn once
 * at random for the process and the last 12 counting its requests, so ids are unique across instances and
 * restarts without drawing random bytes for every request (decision 0129). Nothing trusts an id's secrecy:
 * it is echoed to its own caller and written to logs, traces and error reports.
 */
export function requestIdSequence(): () => string {
  const random = randomBytes(10).toString('hex');
  const prefix = `${random.slice(0, 8)}-${random.slice(8, 12)}-${random.slice(12, 16)}-${random.slice(16, 20)}-`;
  // 2^48 requests (12 hex digits) before the count wraps: decades at thousands of requests a second.
  const wrap = 2 ** 48;
  let count = 0;
  return () => {
    count = (count + 1) % wrap;
    return prefix + count.toString(16).padStart(12, '0');
  };
}

/**
 * One id per request: the trusted proxy's X-Request-Id when it is well-formed (so nginx's log line and ours
 * share it), otherwise the process's next id. Without a trusted proxy a client's header is ignored.
 */
export function requestIdGenerator(options: { trustProxy: TrustProxy }) {
  const fromTrustedProxy = trustedPeer(options.trustProxy);
  const nextId = requestIdSequence();
  return (request: IncomingMessage): string => {
    const given = fromTrustedProxy(request.socket.remoteAddress) ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : nextId();
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
