import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import fp from 'fastify-plugin';

/** What a proxy's id may look like before it is trusted into logs and headers: short, no spaces or markup. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * One id per request: the trusted proxy's X-Request-Id when it is well-formed (so nginx's log line and ours
 * share it), otherwise a random UUID. Without a trusted proxy a client's header is ignored.
 */
export function requestIdGenerator(options: { trustProxy: false | number | string[] }) {
  const fromTrustedProxy = trustedPeer(options.trustProxy);
  return (request: IncomingMessage): string => {
    const given = fromTrustedProxy(request.socket.remoteAddress) ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
  };
}

/** Whether the connection comes from a proxy TRUST_PROXY names (a hop count trusts the nearest peer). */
function trustedPeer(trust: false | number | string[]): (address: string | undefined) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust > 0;
  const proxies = new BlockList();
  for (const entry of trust) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (bits === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
    const plain = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
    return proxies.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}

/** Echoes the id in the X-Request-Id response header, so a caller can quote it. */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'request-id' },
);
