import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminHeaders, call } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { callWith } from "../../test/support/narration";

const status = async () => (await call("/v1/admin/search/reindex/status", { headers: adminHeaders })).json<Record<string, unknown>>();

describe("search reindex", () => {
  it("reports all null on a worker that never started one", async () => {
    expect(await status()).toEqual({ running: null, elapsed_sec: null, ok: null });
  });

  it("starts in the background, returns at once, then reports ok and the elapsed time", async () => {
    const a = await addArticle({ title: "Reindexed walrus" });
    // Empty the index behind the triggers' back: only a rebuild brings the article back.
    await env.DB.prepare("INSERT INTO articles_fts(articles_fts) VALUES ('delete-all')").run();
    const search = async () =>
      (await call("/v1/stories/search?q=walrus&expand=false", { headers: { "x-service-search-cache": "bypass" } })).json<{ results: unknown[] }>();
    expect((await search()).results).toHaveLength(0);

    // The rebuild runs after the response: callWith returns once it is done.
    const res = await callWith(null, "/v1/admin/search/reindex", { method: "POST", headers: adminHeaders });
    expect(res.status).toBe(200);
    const started = await res.json<{ started: boolean; status: { running: boolean } }>();
    expect(started).toMatchObject({ started: true, status: { running: true, ok: null } });

    const s = await status();
    expect(s).toMatchObject({ running: false, ok: true });
    expect(typeof s.elapsed_sec).toBe("number");
    expect((await search()).results).toEqual([expect.objectContaining({ slug: a.slug })]);
  });

  it("needs the admin token", async () => {
    expect((await call("/v1/admin/search/reindex", { method: "POST" })).status).toBe(401);
    expect((await call("/v1/admin/search/reindex/status")).status).toBe(401);
  });
});
