import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * "10.0.7.0/24, 2001:db8:7::/48, 10.0.8.5" as networks in CIDR form (a lone address is a network of one);
 * undefined when any entry is not an address or a network.
 */
export function parseNetworks(text: string): string[] | undefined {
  const networks: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    // Only the usual spellings: ipaddr.js would also read "10.0.7" as 10.0.0.7, which nobody means.
    if (isIP(entry.split('/')[0] ?? '') === 0) return undefined;
    try {
      const [address, bits] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : [ipaddr.parse(entry), ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128];
      networks.push(`${address.toString()}/${bits}`);
    } catch {
      return undefined;
    }
  }
  return networks;
}

/**
 * Whether a client address (as Fastify's request.ip has it) is inside one of `networks`; an IPv4 address
 * written IPv4-mapped in IPv6 (::ffff:10.0.7.9, what a dual-stack socket reports) counts as the IPv4 one.
 */
export function networkMatcher(networks: readonly string[]): (ip: string) => boolean {
  const parsed = networks.map((network) => ipaddr.parseCIDR(network));
  return (ip) => {
    let address;
    try {
      address = ipaddr.process(ip.split('%')[0] ?? ip);
    } catch {
      return false;
    }
    return parsed.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));
  };
}
