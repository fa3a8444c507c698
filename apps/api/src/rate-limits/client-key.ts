import ipaddr from 'ipaddr.js';

/**
 * The key a client is counted under: an IPv4 address as it is (also when written IPv4-mapped in IPv6), an
 * IPv6 address by its /64 network (one subscriber gets a whole /64, so counting single addresses would give
 * them endless budgets). Anything that is no address is its own key.
 */
export function clientKey(ip: string): string {
  let address;
  try {
    address = ipaddr.process(ip.split('%')[0] ?? ip);
  } catch {
    return ip;
  }
  if (address.kind() === 'ipv4') return address.toString();
  const network = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}
