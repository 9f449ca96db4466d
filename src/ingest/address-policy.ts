import ipaddr from 'ipaddr.js';

/** Host names of cloud metadata services, refused before any DNS lookup. */
export const METADATA_HOSTS: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * True only for globally routable unicast addresses. IPv6 forms that embed an IPv4 address
 * (mapped, NAT64, 6to4, Teredo) are judged by the IPv4 inside, so `::ffff:127.0.0.1` is
 * loopback, not "IPv6 unicast".
 */
export function isPublicAddress(ip: string): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return false;
  }
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const embedded = embeddedIpv4(v6);
    if (embedded) return isPublicAddress(embedded.toString());
    return v6.range() === 'unicast';
  }
  return (addr as ipaddr.IPv4).range() === 'unicast';
}

function embeddedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const p = v6.parts;
  const range = v6.range();
  // ::a.b.c.d (deprecated IPv4-compatible) and 64:ff9b::/96 (NAT64) carry it in the last 32 bits.
  const isCompatible = p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1);
  if (isCompatible || range === 'rfc6052' || (p[0] === 0x64 && p[1] === 0xff9b)) {
    return new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]);
  }
  if (range === '6to4') return new ipaddr.IPv4([p[1] >> 8, p[1] & 255, p[2] >> 8, p[2] & 255]);
  if (range === 'teredo') {
    // Teredo stores the client address inverted in the last 32 bits.
    return new ipaddr.IPv4([(p[6] >> 8) ^ 255, (p[6] & 255) ^ 255, (p[7] >> 8) ^ 255, (p[7] & 255) ^ 255]);
  }
  return null;
}
