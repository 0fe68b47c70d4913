import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../test/support/client";
import { subscribeVia } from "../test/support/listeners";
import { PAYWALL_SOURCE, type DedupeWindow } from "./dedupe-window";

const click = (token: string, publisher = "Partner Post") => call(`/v1/listeners/${token}/clickthrough/partner-paywall`, jsonBody("POST", { publisher }));

async function entries() {
  return (await env.DB.prepare("select * from ledger_entries order by id").all<Record<string, unknown>>()).results;
}

describe("partner-paywall click-through (docs/rules.md 3, 30 s window)", () => {
  it("writes one zero-amount entry and returns it with duplicate true on a repeat", async () => {
    const { token } = await subscribeVia("click@example.test");
    const first = await click(token);
    expect(first.status).toBe(200);
    const a = (await first.json()) as { entry_id: number; duplicate: boolean };
    expect(a.duplicate).toBe(false);
    expect(await (await click(token)).json()).toEqual({ entry_id: a.entry_id, duplicate: true });
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: a.entry_id, amount_micros: 0, source: PAYWALL_SOURCE, publisher: "Partner Post", party: null });
  });

  it("writes one row for many concurrent clicks", async () => {
    const { token } = await subscribeVia("burst@example.test");
    const bodies = await Promise.all(Array.from({ length: 12 }, async () => (await click(token)).json() as Promise<{ entry_id: number; duplicate: boolean }>));
    expect(new Set(bodies.map((b) => b.entry_id)).size).toBe(1);
    expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1);
    expect(await entries()).toHaveLength(1);
  });

  it("keeps separate windows per publisher and per listener", async () => {
    const ann = await subscribeVia("ann@example.test");
    const bob = await subscribeVia("bob@example.test");
    await Promise.all([click(ann.token, "A"), click(ann.token, "B"), click(bob.token, "A")]);
    expect(await entries()).toHaveLength(3);
  });

  it("writes a new entry once 30 s have passed since the last entry", async () => {
    const { token } = await subscribeVia("later@example.test");
    const first = (await (await click(token)).json()) as { entry_id: number };
    const listenerId = (await env.DB.prepare("select id from listeners").first<{ id: number }>())!.id;
    const stub = env.DEDUPE_WINDOW.getByName(`paywall:${listenerId}:Partner Post`);
    await runInDurableObject(stub, (_: DedupeWindow, state) => {
      const last = state.storage.kv.get<{ entryId: number; at: number }>("last")!;
      state.storage.kv.put("last", { ...last, at: last.at - 29_000 });
    });
    expect(await (await click(token)).json()).toEqual({ entry_id: first.entry_id, duplicate: true });
    await runInDurableObject(stub, (_: DedupeWindow, state) => {
      const last = state.storage.kv.get<{ entryId: number; at: number }>("last")!;
      state.storage.kv.put("last", { ...last, at: last.at - 1_001 });
    });
    const next = (await (await click(token)).json()) as { entry_id: number; duplicate: boolean };
    expect(next.duplicate).toBe(false);
    expect(next.entry_id).not.toBe(first.entry_id);
    expect(await entries()).toHaveLength(2);
  });

  it("forgets an expired entry when its alarm fires", async () => {
    const stub = env.DEDUPE_WINDOW.getByName("alarm-test");
    await subscribeVia("alarm@example.test");
    const listenerId = (await env.DB.prepare("select id from listeners").first<{ id: number }>())!.id;
    await stub.clickThrough({ listenerId, publisher: "P" }, 30_000);
    await runInDurableObject(stub, async (instance: DedupeWindow, state) => {
      expect(await state.storage.getAlarm()).not.toBeNull();
      await instance.alarm();
      expect(state.storage.kv.get("last")).toBeUndefined();
    });
  });
});
