import { describe, expect, it } from "vitest";
import { budgetKey } from "./client-address";

/**
 * The per-IP budget key of an IPv6 client is its /64 (issue 46, beside client-address.test.ts), each
 * side of the boundary its own assertion. Planted bugs these catch: a /48 or /80 prefix in place of
 * the /64, the IPv4-mapped test loosened to fewer zero groups, the mapped address's bytes swapped.
 */
describe("the budget key of an address", () => {
  it("is the same for every host of one /64", () => {
    expect(budgetKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(budgetKey("2001:db8:1:2::"));
    expect(budgetKey("2001:db8:1:2:8000::")).toBe(budgetKey("2001:db8:1:2::1"));
  });

  it("differs between neighbouring /64s, in the fourth group's last bit", () => {
    expect(budgetKey("2001:db8:1:2::1")).not.toBe(budgetKey("2001:db8:1:3::1"));
  });

  it("takes only ::ffff:0:0/96 as IPv4, bytes in order", () => {
    expect(budgetKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(budgetKey("::1:ffff:cb00:7107")).toBe("0:0:0:0::/64");
    expect(budgetKey("1::ffff:cb00:7107")).toBe("1:0:0:0::/64");
  });

  // Killed mutants (npm run mutation): the "unparsable" test dropped, which throws on these.
  it("is an IPv4 address itself, and anything unparsable as it was written", () => {
    expect(budgetKey("203.0.113.7")).toBe("203.0.113.7");
    expect(budgetKey("2001:db8::1::2")).toBe("2001:db8::1::2");
    expect(budgetKey("unknown")).toBe("unknown");
  });

  it("reads every notation of RFC 4291 §2.2 and writes the /64 one way (RFC 5952: lower case, no leading zeros)", () => {
    const key = "2001:db8:abcd:12::/64";
    for (const written of [
      "2001:db8:abcd:12::1",
      "2001:DB8:ABCD:0012:0000:0000:0000:0001",
      " 2001:db8:abcd:12:0:0:0:1 ",
      "2001:db8:abcd:12:1::",
      "2001:db8:abcd:12:0:0:192.0.2.1",
      "2001:db8:abcd:12::192.0.2.1",
      "2001:db8:abcd:12:0:0::1", // "::" for a single group (RFC 4291 §2.2 allows it; RFC 5952 §4.2.2 writes it out)
    ]) {
      expect(budgetKey(written), written).toBe(key);
    }
    expect(budgetKey("::")).toBe("0:0:0:0::/64");
    expect(budgetKey("::1")).toBe("0:0:0:0::/64");
    expect(budgetKey("1:2:3:4:5:6:7:8")).toBe("1:2:3:4::/64");
    expect(budgetKey("1::8")).toBe("1:0:0:0::/64");
    expect(budgetKey("ffff:1:2:3::")).toBe("ffff:1:2:3::/64");
  });

  it("takes the mapped IPv4 in its dotted notation too, in any case, its bytes in order", () => {
    expect(budgetKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(budgetKey("0:0:0:0:0:ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(budgetKey("::ffff:0102:0304")).toBe("1.2.3.4");
    expect(budgetKey("::ffff:255.255.255.255")).toBe("255.255.255.255");
  });

  it("keeps as written what is no IPv6 address: too many or too few groups, a group too long or not hex, a byte over 255", () => {
    for (const written of [
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "1:2:3:4::5:6:7:8",
      "12345::1",
      "2001:db8::g",
      "::ffff:256.0.0.1",
      "::ffff:1.2.3.999",
      "2001:db8::1:",
      ":",
      "1:2:3:4:5:6:7:8::1::", // two "::"
      "::ffff:1.2.3.4x", // the dotted quad must end the address
      "::ffff:1.2.3.4567",
      "junk\n::ffff:1.2.3.4", // ... and the address must start at the text's start
    ]) {
      expect(budgetKey(written), written).toBe(written);
    }
  });
});
