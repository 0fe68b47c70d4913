import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RenderGate } from "./render-gate";

let n = 0;
/** A fresh gate per test, as the Workers pool keeps objects between tests. */
function gate() {
  return env.RENDER_GATE.getByName(`gate-test-${Date.now()}-${n++}`);
}

afterEach(() => vi.useRealTimers());

describe("RenderGate", () => {
  it("grants up to the cap, then refuses with a Retry-After until a slot is released", async () => {
    const g = gate();
    expect(await g.acquire("a", 2, 60_000)).toEqual({ ok: true });
    expect(await g.acquire("b", 2, 60_000)).toEqual({ ok: true });
    const refused = await g.acquire("c", 2, 60_000);
    expect(refused.ok).toBe(false);
    expect(refused).toMatchObject({ reason: "in_flight", retryAfter: expect.any(Number) });
    if (!refused.ok && refused.reason === "in_flight") expect(refused.retryAfter).toBeGreaterThanOrEqual(59);
    await g.release("a");
    expect(await g.acquire("c", 2, 60_000)).toEqual({ ok: true });
    expect(await g.inFlight()).toBe(2);
  });

  it("re-acquiring a held slot renews it without taking another", async () => {
    const g = gate();
    expect(await g.acquire("a", 1, 60_000)).toEqual({ ok: true });
    expect(await g.acquire("a", 1, 60_000)).toEqual({ ok: true });
    expect(await g.inFlight()).toBe(1);
  });

  it("never grants more than the cap to concurrent callers", async () => {
    const g = gate();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => g.acquire(`job-${i}`, 3, 60_000)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(await g.inFlight()).toBe(3);
  });

  // planted: drop `this.expire(now)` at the top of acquire. The alarm is never run here, so only
  // acquire itself can see that the lease ran out.
  it("a lease that ran out frees its slot for the next acquire, before any alarm runs", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const g = gate();
    expect(await g.acquire("crashed", 1, 60_000)).toEqual({ ok: true });
    vi.advanceTimersByTime(59_999);
    expect(await g.acquire("other", 1, 60_000)).toMatchObject({ ok: false, reason: "in_flight", retryAfter: 1 });
    vi.advanceTimersByTime(1);
    expect(await g.acquire("next", 1, 60_000)).toEqual({ ok: true });
  });

  it("the alarm clears expired leases from storage, so a crashed render cannot leak a slot", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const g = gate();
    expect(await g.acquire("crashed", 1, 60_000)).toEqual({ ok: true });
    vi.advanceTimersByTime(60_000);
    expect(await runDurableObjectAlarm(g)).toBe(true);
    await runInDurableObject(g, (_instance: RenderGate, state) => {
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM slots").one().n).toBe(0);
    });
  });

  it("counts starts against a daily budget that a released slot does not give back, and a withdrawn one does", async () => {
    const g = gate();
    expect(await g.acquire("a", 5, 60_000, { perDay: 2 })).toEqual({ ok: true });
    await g.release("a");
    expect(await g.acquire("b", 5, 60_000, { perDay: 2 })).toEqual({ ok: true });
    await g.release("b");
    const refused = await g.acquire("c", 5, 60_000, { perDay: 2 });
    expect(refused).toMatchObject({ ok: false, reason: "daily" });
    // The oldest start leaves the budget a day after it was counted.
    if (!refused.ok && refused.reason === "daily") expect(refused.retryAfter).toBeGreaterThan(86_000);
    expect(await g.startedToday()).toBe(2);
    await g.withdraw("b");
    expect(await g.acquire("c", 5, 60_000, { perDay: 2 })).toEqual({ ok: true });
    // Renewing a held slot counts nothing.
    expect(await g.acquire("c", 5, 60_000, { perDay: 2 })).toEqual({ ok: true });
    expect(await g.startedToday()).toBe(2);
  });

  it("grants an article's slot to one job at a time and names it to the others", async () => {
    const g = gate();
    const results = await Promise.all(["x", "y", "z"].map((id) => g.acquire(id, 3, 60_000, { article: "42" })));
    const granted = ["x", "y", "z"].filter((_, i) => results[i].ok);
    expect(granted).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(r).toEqual({ ok: false, reason: "article_held", holder: granted[0] });
    expect(await g.acquire("other", 3, 60_000, { article: "43" })).toEqual({ ok: true });
    await g.withdraw(granted[0]);
    expect(await g.acquire("y2", 3, 60_000, { article: "42" })).toEqual({ ok: true });
    expect(await g.inFlight()).toBe(2);
  });

  it("releasing an unknown job does nothing", async () => {
    const g = gate();
    await g.release("never-held");
    expect(await g.inFlight()).toBe(0);
  });
});
