import { BlockList, isIP, isIPv4 } from 'node:net';

/** TRUST_PROXY as config.ts reads it: nobody, the nearest N hops, or the listed addresses and networks. */
export type TrustProxy = false | number | string[];

/**
 * Whether a connection comes from a proxy TRUST_PROXY names (a hop count trusts the nearest peer). An entry
 * that is no address is skipped: config.ts refuses it at start-up with a message, and this may run before.
 */
export function trustedPeer(trust: TrustProxy): (address: string | undefined) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust > 0;
  const proxies = new BlockList();
  for (const entry of trust) {
    const [address = '', bits] = entry.split('/');
    if (isIP(address) === 0) continue;
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
