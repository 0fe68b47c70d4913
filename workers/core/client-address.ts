/**
 * The client a per-IP budget counts (docs/api-conventions.md "Rate limits"). An IPv4 address is one client. An IPv6
 * address is not: a subscriber is handed a /64 or more (RFC 6177 §2), whose lower 64 bits are the
 * host's to choose (RFC 4291 §2.5.1, RFC 8981 temporary addresses), so keyed by the whole address
 * one machine would get a fresh budget for each of 2^64 addresses. IPv6 is keyed by its /64, written
 * one way (RFC 5952) whatever way the header wrote it; an IPv4-mapped address (::ffff:a.b.c.d) is
 * its IPv4 address. Anything unparsable is its own key, as before.
 */
export function budgetKey(address: string): string {
  const groups = address.includes(":") ? ipv6Groups(address) : null;
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address in text form (RFC 4291 §2.2), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.trim().toLowerCase();
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const bytes = dotted.slice(2).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    text = `${dotted[1]}${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}
