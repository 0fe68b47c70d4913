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
});
