import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { ApiError } from "../core/errors";
import { subscribeVia } from "../../test/support/listeners";
import { walletAudit } from "./routes/get.admin.circle.wallet-audit";
import { CIRCLE_WALLETS_URL } from "./wallet-provider";

afterEach(() => vi.restoreAllMocks());

const preWarm = (token: string, body: unknown, headers: Record<string, string> = adminHeaders) =>
  call(`/v1/admin/listeners/${token}/pre-warm`, jsonBody("POST", body, headers));

describe("POST /v1/admin/listeners/{token}/pre-warm", () => {
  it("queues renders for the newest articles without audio, then skips the listener unless forced", async () => {
    const { token } = await subscribeVia("warm@example.test", ["tech"]);
    const t = Date.now();
    const a = await addArticle({ vertical: "tech", createdAt: new Date(t - 3000) });
    const b = await addArticle({ vertical: "tech", createdAt: new Date(t - 2000) });
    const c = await addArticle({ vertical: "tech", createdAt: new Date(t - 1000) });
    await addArticle({ vertical: "sports" });
    const res = await preWarm(token, { count: 2 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { skipped: boolean; queued: { slug: string; job_id: string }[]; first_render_done_at: string | null };
    expect(body.skipped).toBe(false);
    expect(body.queued.map((q) => q.slug)).toEqual([c.slug, b.slug]);
    // Queued is not rendered: the render consumer sets first_render_done_at when a job is done.
    expect(body.first_render_done_at).toBeNull();
    const jobs = await env.DB.prepare("select article_id, state, warm_listener_id from render_jobs order by article_id").all();
    const listener = await env.DB.prepare("select id from listeners").first<{ id: number }>();
    expect(jobs.results).toEqual([
      { article_id: b.id, state: "queued", warm_listener_id: listener!.id },
      { article_id: c.id, state: "queued", warm_listener_id: listener!.id },
    ]);
    await env.DB.prepare("update listeners set first_render_done_at = ?").bind(Date.now()).run();

    const again = (await (await preWarm(token, {})).json()) as { skipped: boolean; queued: unknown[] };
    expect(again).toMatchObject({ skipped: true, queued: [] });

    const forced = (await (await preWarm(token, { force: true })).json()) as { skipped: boolean; queued: { slug: string }[] };
    expect(forced.skipped).toBe(false);
    expect(forced.queued.map((q) => q.slug)).toEqual([a.slug]);
  });

  it("counts audio that already exists among the listener's newest articles as the first render", async () => {
    const { token } = await subscribeVia("ready@example.test", ["tech"]);
    await addArticle({ vertical: "tech", audioKey: "a".repeat(64), listenSeconds: 60 });
    const body = (await (await preWarm(token, {})).json()) as { queued: unknown[]; first_render_done_at: string | null };
    expect(body.queued).toEqual([]);
    expect(body.first_render_done_at).not.toBeNull();
  });

  it.each([0, 11, 2.5])("rejects count %s with 422", async (count) => {
    const { token } = await subscribeVia("bad-count@example.test");
    expect((await preWarm(token, { count })).status).toBe(422);
  });

  it("needs the admin token, and answers 404 for an unknown listener", async () => {
    const { token } = await subscribeVia("auth@example.test");
    expect((await preWarm(token, {}, {})).status).toBe(401);
    expect((await preWarm("no-such-token", {})).status).toBe(404);
  });
});

describe("GET /v1/admin/circle/wallet-audit", () => {
  const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

  async function audit(over: Partial<Env>): Promise<{ status: number; body?: unknown }> {
    try {
      const res = await walletAudit.handle({ env: { ...env, ...over } } as unknown as Parameters<typeof walletAudit.handle>[0]);
      return { status: res.status, body: await res.json() };
    } catch (err) {
      return { status: err instanceof ApiError ? err.status : 500 };
    }
  }

  it("compares the provider's wallets (all pages) with listeners' addresses, read only", async () => {
    const { token } = await subscribeVia("wallet@example.test");
    await call(`/v1/listeners/${token}`, jsonBody("PATCH", { wallet_address: address(1).toUpperCase().replace("0X", "0x") }));
    const page1 = Array.from({ length: 50 }, (_, i) => ({ id: `w${i}`, address: address(i + 1) }));
    const page2 = Array.from({ length: 10 }, (_, i) => ({ id: `w${50 + i}`, address: address(51 + i) }));
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValueOnce(Response.json({ data: { wallets: page1 } }))
      .mockResolvedValueOnce(Response.json({ data: { wallets: page2 } }));
    const result = await audit({ CIRCLE_API_KEY: "circle-key" });
    expect(result.status).toBe(200);
    const body = result.body as { provider_total: number; db_total: number; orphan_count: number; orphan_sample: string[] };
    expect(body).toMatchObject({ provider_total: 60, db_total: 1, orphan_count: 59 });
    expect(body.orphan_sample).toHaveLength(20);
    expect(body.orphan_sample).not.toContain(address(1));
    const [firstUrl, init] = spy.mock.calls[0] as [string, RequestInit];
    expect(firstUrl).toBe(`${CIRCLE_WALLETS_URL}?pageSize=50`);
    expect(new Headers(init.headers).get("authorization")).toBe("Bearer circle-key");
    expect(spy.mock.calls[1][0]).toBe(`${CIRCLE_WALLETS_URL}?pageSize=50&pageAfter=w49`);
    expect(init.method ?? "GET").toBe("GET");
  });

  it("answers 503 when CIRCLE_API_KEY is unset, without calling out", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    expect((await audit({ CIRCLE_API_KEY: "" })).status).toBe(503);
    expect(spy).not.toHaveBeenCalled();
    expect((await call("/v1/admin/circle/wallet-audit", { headers: adminHeaders })).status).toBe(503);
  });

  it("answers 503 when the provider fails", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("nope", { status: 500 }));
    expect((await audit({ CIRCLE_API_KEY: "circle-key" })).status).toBe(503);
  });
});
