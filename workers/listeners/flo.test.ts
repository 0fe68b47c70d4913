import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { database } from "../db";
import { activeBlock, loadFlo, localHour, orderForBlock, type FloBlock } from "./flo";
import { subscribeVia } from "../../test/support/listeners";

type FloBody = { timezone: string; active_block: FloBlock; blocks: FloBlock[] };

/**
 * The Worker and the test read one faked clock, 08:30 UTC (17:30 in Tokyo), so the active block is
 * known in advance and cannot change between the request and the assertion.
 */
function atHalfPastEightUtc() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 23, 8, 30) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

describe("active block in the listener's time zone", () => {
  it("reads the local hour with Intl, across zones and DST", () => {
    const at = new Date("2026-07-01T06:30:00Z");
    expect(localHour(at, "UTC")).toBe(6);
    expect(localHour(at, "Europe/Paris")).toBe(8); // CEST, UTC+2
    expect(localHour(at, "America/New_York")).toBe(2); // EDT, UTC-4
    expect(localHour(new Date("2026-01-01T06:30:00Z"), "Europe/Paris")).toBe(7); // CET, UTC+1
    expect(localHour(new Date("2026-01-01T00:30:00Z"), "UTC")).toBe(0);
  });

  it("tiles the day: every hour has exactly one block, and night wraps past midnight", async () => {
    const blocks = await loadFlo(database(env), 0);
    for (let h = 0; h < 24; h++) {
      const covering = blocks.filter((b) => (b.start_hour <= b.end_hour ? h >= b.start_hour && h < b.end_hour : h >= b.start_hour || h < b.end_hour));
      expect(covering, `hour ${h}`).toHaveLength(1);
      expect(activeBlock(blocks, h)).toBe(covering[0]);
    }
    expect(activeBlock(blocks, 23).id).toBe("night");
    expect(activeBlock(blocks, 2).id).toBe("night");
    expect(activeBlock(blocks, 7).id).toBe("morning");
  });
});

describe("flo ordering (docs/rules.md 4: manual_order, then vertical and tone score, then recency)", () => {
  const block: FloBlock = {
    id: "morning",
    label: "",
    start_hour: 5,
    end_hour: 9,
    verticals: ["news", "tech"],
    tone: "brief",
    manual_order: ["pinned-b", "pinned-a"],
    overridden: true,
  };
  const item = (slug: string, vertical: string, listenSeconds: number | null, minutesAgo: number) => ({
    slug,
    vertical,
    listenSeconds,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12) - minutesAgo * 60_000),
  });

  it("puts manual_order first in its order, then score, then newest", () => {
    const ordered = orderForBlock(block, [
      item("old-news-brief", "news", 120, 300), // vertical 1 + tone 0.5
      item("new-tech-long", "tech", 900, 1), // vertical 0.5
      item("pinned-a", "sports", null, 1000),
      item("new-news-long", "news", 900, 5), // vertical 1
      item("older-news-long", "news", 900, 50), // vertical 1, older
      item("pinned-b", "sports", null, 2000),
      item("sports", "sports", 100, 0), // tone 0.5 only, ties new-tech-long and is newer
    ]);
    expect(ordered.map((a) => a.slug)).toEqual(["pinned-b", "pinned-a", "old-news-brief", "new-news-long", "older-news-long", "sports", "new-tech-long"]);
  });
});

describe("GET and PUT /v1/listener/{token}/flo", () => {
  atHalfPastEightUtc();

  it("returns the default blocks and an active block", async () => {
    const { token } = await subscribeVia("flo@example.test");
    const res = await call(`/v1/listener/${token}/flo`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as FloBody;
    expect(body.timezone).toBe("UTC");
    expect(body.blocks.map((b) => b.id)).toEqual(["morning", "focus", "midday", "afternoon", "evening", "night"]);
    expect(body.blocks.every((b) => !b.overridden && b.manual_order.length === 0)).toBe(true);
    expect(body.active_block.id).toBe("morning");
  });

  it("resolves the active block in the saved time zone", async () => {
    const { token } = await subscribeVia("tzflo@example.test");
    await call(`/v1/listeners/${token}`, jsonBody("PATCH", { timezone: "Asia/Tokyo" }));
    const body = (await (await call(`/v1/listener/${token}/flo`)).json()) as FloBody;
    expect(body.timezone).toBe("Asia/Tokyo");
    expect(body.active_block.id).toBe("afternoon");
  });

  it("changes only the blocks and fields present, and persists manual_order", async () => {
    const { token } = await subscribeVia("put@example.test");
    await call(`/v1/listener/${token}/flo`, jsonBody("PUT", { blocks: [{ id: "evening", verticals: ["parenting"], manual_order: ["x", "y"] }] }));
    const res = await call(`/v1/listener/${token}/flo`, jsonBody("PUT", { blocks: [{ id: "evening", tone: "calm" }] }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as FloBody;
    const evening = body.blocks.find((b) => b.id === "evening")!;
    expect(evening).toMatchObject({ verticals: ["young_moms"], tone: "calm", manual_order: ["x", "y"], overridden: true });
    const morning = body.blocks.find((b) => b.id === "morning")!;
    expect(morning).toMatchObject({ verticals: ["news", "finance", "tech"], tone: "brief", overridden: false });
    const again = (await (await call(`/v1/listener/${token}/flo`)).json()) as FloBody;
    expect(again.blocks).toEqual(body.blocks);
  });

  it.each([
    ["an unknown block", { blocks: [{ id: "brunch", tone: "calm" }] }],
    ["an unknown tone", { blocks: [{ id: "night", tone: "shouty" }] }],
    ["a block twice", { blocks: [{ id: "night" }, { id: "night" }] }],
    ["an unknown vertical", { blocks: [{ id: "night", verticals: ["astrology"] }] }],
  ])("rejects %s with 422 and changes nothing", async (_, body) => {
    const { token } = await subscribeVia("bad@example.test");
    expect((await call(`/v1/listener/${token}/flo`, jsonBody("PUT", body))).status).toBe(422);
    expect((await env.DB.prepare("select count(*) as n from flo_overrides").first<{ n: number }>())!.n).toBe(0);
  });
});

describe("GET /v1/listener/{token}/flo/now", () => {
  atHalfPastEightUtc();

  it("serves the active block's queue: manual_order first, then score, never others' private articles", async () => {
    const { token } = await subscribeVia("now@example.test");
    await subscribeVia("other@example.test");
    const otherId = (await env.DB.prepare("select id from listeners where email = 'other@example.test'").first<{ id: number }>())!.id;
    const active = ((await (await call(`/v1/listener/${token}/flo`)).json()) as FloBody).active_block;
    expect(active.id).toBe("morning");
    const [first] = active.verticals;
    const t = Date.now();
    const offTopic = await addArticle({ vertical: "media", createdAt: new Date(t - 3_600_000) });
    const onTopic = await addArticle({ vertical: first, createdAt: new Date(t - 60_000) });
    const newerOnTopic = await addArticle({ vertical: first, createdAt: new Date(t - 1_000) });
    await addArticle({ vertical: first, visibility: "listener_private", ownerListenerId: otherId, slug: "not-yours" });
    await call(`/v1/listener/${token}/flo`, jsonBody("PUT", { blocks: [{ id: active.id, verticals: [first], manual_order: [offTopic.slug] }] }));
    const res = await call(`/v1/listener/${token}/flo/now?limit=10`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { block_id: string; items: { slug: string; pinned: boolean }[] };
    expect(body.block_id).toBe(active.id);
    expect(body.items.map((i) => i.slug)).toEqual([offTopic.slug, newerOnTopic.slug, onTopic.slug]);
    expect(body.items[0].pinned).toBe(true);
  });
});
