/** IP address validation and the one canonical text form the API stores and shows */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

/** Canonical form of an IPv4 or IPv6 address (RFC 5952 for IPv6), or undefined when it is not one */
export function canonicalIp(text: string): string | undefined {
  if (IPV4.test(text)) return text;
  const groups = parseIpv6(text);
  return groups && formatIpv6(groups);
}

/** The eight 16-bit groups of an IPv6 address, or undefined */
function parseIpv6(text: string): number[] | undefined {
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1]!, true) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  // "::" stands for at least one zero group; without it the address must have all eight
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** Groups of one side of "::"; a dotted IPv4 may end the address only (`last`) */
function parseGroups(text: string, last: boolean): number[] | undefined {
  if (text === '') return [];
  const parts = text.split(':');
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (HEXTET.test(part)) groups.push(parseInt(part, 16));
    else if (last && index === parts.length - 1 && IPV4.test(part)) {
      const [a, b, c, d] = part.split('.').map(Number) as [number, number, number, number];
      groups.push((a << 8) | b, (c << 8) | d);
    } else return undefined;
  }
  return groups;
}

/** RFC 5952 text: lower case, no leading zeros, longest zero run (≥ 2, leftmost) as "::" */
function formatIpv6(groups: number[]): string {
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `::ffff:${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  let best = { at: -1, length: 1 };
  for (let at = 0; at < 8;) {
    let end = at;
    while (end < 8 && groups[end] === 0) end++;
    if (end - at > best.length) best = { at, length: end - at };
    at = Math.max(end, at + 1);
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/** An IP as a number, for numeric order and prefix matches: IPv4 in 32 bits, IPv6 (IPv4-mapped too) in 128 */
export interface IpNumber {
  v6: boolean;
  value: bigint;
}

/** The number of a canonical (or any valid) IP address, or undefined when it is not one */
export function ipNumber(text: string): IpNumber | undefined {
  if (IPV4.test(text)) {
    // Digits read in place and one BigInt per address: a table numbers each of its IPs on its first page
    let value = 0;
    let octet = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 46) {
        value = value * 256 + octet;
        octet = 0;
      } else octet = octet * 10 + code - 48;
    }
    return { v6: false, value: BigInt(value * 256 + octet) };
  }
  const groups = parseIpv6(text);
  return groups && { v6: true, value: groups.reduce((n, group) => (n << 16n) | BigInt(group), 0n) };
}

/** A CIDR prefix such as `10.0.0.0/16` or `2001:db8::/32`, as a test of IP numbers; undefined when it is not one */
export function cidrMatcher(text: string): ((ip: IpNumber) => boolean) | undefined {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text);
  const net = match && ipNumber(match[1]!);
  if (!net) return undefined;
  const width = net.v6 ? 128n : 32n;
  const bits = BigInt(match![2]!);
  if (bits > width) return undefined;
  const shift = width - bits;
  const prefix = net.value >> shift;
  return (ip) => ip.v6 === net.v6 && ip.value >> shift === prefix;
}
