/**
 * Which IP addresses a server must not fetch on a caller's behalf: the machine itself, its private
 * networks, link-local and cloud metadata addresses, and ranges that are never a public host. IPv4 forms
 * hidden inside IPv6 (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::`, 6to4
 * `2002::`) are judged by the IPv4 address they carry. Pure string work, so it runs in browsers too.
 */

/** An IPv4 range: the first address as a 32-bit number, the prefix length, and what it is. */
type Range4 = readonly [start: number, prefix: number, kind: string];

const ipv4Ranges: readonly Range4[] = [
  [ipv4Number(0, 0, 0, 0), 8, "unspecified (this network)"],
  [ipv4Number(10, 0, 0, 0), 8, "private"],
  [ipv4Number(100, 64, 0, 0), 10, "carrier-grade NAT (also Alibaba Cloud metadata)"],
  [ipv4Number(127, 0, 0, 0), 8, "loopback"],
  [ipv4Number(169, 254, 0, 0), 16, "link-local (cloud metadata)"],
  [ipv4Number(172, 16, 0, 0), 12, "private"],
  [ipv4Number(192, 0, 0, 0), 24, "IETF protocol assignments"],
  [ipv4Number(192, 0, 2, 0), 24, "documentation"],
  [ipv4Number(192, 88, 99, 0), 24, "6to4 relay"],
  [ipv4Number(192, 168, 0, 0), 16, "private"],
  [ipv4Number(198, 18, 0, 0), 15, "benchmarking"],
  [ipv4Number(198, 51, 100, 0), 24, "documentation"],
  [ipv4Number(203, 0, 113, 0), 24, "documentation"],
  [ipv4Number(224, 0, 0, 0), 4, "multicast"],
  [ipv4Number(240, 0, 0, 0), 4, "reserved (and broadcast)"],
];

function ipv4Number(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/**
 * Why `address` (an IPv4 or IPv6 literal, brackets and a zone allowed) is not a public host, or
 * `undefined` when it is one. Text that is not an IP address is `"not an IP address"`: a caller that
 * cannot tell what it is must not fetch it.
 */
export function blockedAddressKind(address: string): string | undefined {
  const text = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const ipv4 = parseIpv4(text);
  if (ipv4 !== undefined) return ipv4Kind(ipv4);
  const ipv6 = parseIpv6(text);
  if (ipv6 === undefined) return "not an IP address";
  return ipv6Kind(ipv6);
}

/** Whether `text` is an IP literal (v4, or v6 with or without brackets), as opposed to a host name. */
export function isIpAddress(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  return parseIpv4(bare) !== undefined || parseIpv6(bare) !== undefined;
}

function ipv4Kind(value: number): string | undefined {
  for (const [start, prefix, kind] of ipv4Ranges) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === start) return kind;
  }
  return undefined;
}

function ipv6Kind(groups: readonly number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 0) return "unspecified";
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 1) return "loopback";
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) reach the IPv4 address they carry.
  if (firstFiveZero && (g5 === 0xffff || g5 === 0)) return ipv4Kind(embedded);
  // 64:ff9b::a.b.c.d (NAT64, well-known prefix) and 64:ff9b:1::/48 (local-use NAT64).
  if (g0 === 0x64 && g1 === 0xff9b) return g2 === 1 ? "local NAT64" : ipv4Kind(embedded);
  // 2002:AABB:CCDD::/48 (6to4) carries the IPv4 address AA.BB.CC.DD.
  if (g0 === 0x2002) return ipv4Kind(((g1 << 16) | g2) >>> 0);
  if (g0 === 0x2001 && g1 === 0) return "Teredo tunnel";
  if (g0 === 0x2001 && g1 === 0xdb8) return "documentation";
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "discard-only";
  if ((g0 & 0xfe00) === 0xfc00) return "unique local (private; also AWS metadata fd00:ec2::254)";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "site-local";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

/** Dotted-quad IPv4 (what URL parsing and DNS answers give), as a 32-bit number. */
function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** IPv6 text (`::` shorthand and a trailing dotted quad allowed) as eight 16-bit groups. */
function parseIpv6(text: string): number[] | undefined {
  if (!text.includes(":")) return undefined;
  let body = text;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const ipv4 = parseIpv4(last);
    if (ipv4 === undefined) return undefined;
    tail.push(ipv4 >>> 16, ipv4 & 0xffff);
    // `::1.2.3.4` leaves `:`, which must stay the `::` shorthand.
    body = text.slice(0, lastColon);
    if (body.endsWith(":")) body += ":";
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const read = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === "") return [];
    const groups: number[] = [];
    for (const group of half.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
      groups.push(Number.parseInt(group, 16));
    }
    return groups;
  };
  const head = read(halves[0]);
  const rest = read(halves[1]);
  if (head === undefined || rest === undefined) return undefined;
  const total = head.length + rest.length + tail.length;
  if (halves.length === 1) return total === 8 ? [...head, ...tail] : undefined;
  if (total > 7) return undefined;
  return [...head, ...new Array<number>(8 - total).fill(0), ...rest, ...tail];
}
