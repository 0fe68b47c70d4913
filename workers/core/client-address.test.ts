import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { budgetKey } from "./client-address";

/** Per-IP budgets (rate-limit.ts) key IPv6 by its /64, so a client cannot take a fresh budget per address. */

/** docs/api-conventions.md "Rate limits": reads 60 a minute per IP; written out so that a changed budget fails here. */
const READS = 60;

async function spendReads(ip: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) expect((await call("/v1/listeners/verticals", { ip })).status).toBe(200);
}

describe("per-IP budgets and IPv6", () => {
  it("give a second address of the same /64 no fresh budget, in any of its notations", async () => {
    await spendReads("2001:db8:abcd:12::1", READS);
    for (const sibling of ["2001:db8:abcd:12:ffff:ffff:ffff:fffe", "2001:DB8:ABCD:0012:0:0:0:5", "2001:db8:abcd:12:1::"]) {
      const res = await call("/v1/listeners/verticals", { ip: sibling });
      expect(res.status, sibling).toBe(429);
      expect(res.headers.get("Retry-After")).toBeTruthy();
    }
    expect((await call("/v1/listeners/verticals", { ip: "2001:db8:abcd:13::1" })).status).toBe(200);
  });

  it("keep counting each IPv4 address on its own", async () => {
    await spendReads("203.0.113.10", READS);
    expect((await call("/v1/listeners/verticals", { ip: "203.0.113.10" })).status).toBe(429);
    expect((await call("/v1/listeners/verticals", { ip: "203.0.113.11" })).status).toBe(200);
  });

  it.each([
    ["2001:db8:abcd:12::1", "2001:db8:abcd:12::/64"],
    ["2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["64:ff9b::192.0.2.7", "64:ff9b:0:0::/64"],
    ["192.0.2.7", "192.0.2.7"],
    ["local", "local"],
    ["1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"],
    ["2001:db8::g", "2001:db8::g"],
  ])("keys %s as %s", (address, key) => {
    expect(budgetKey(address)).toBe(key);
  });
});
