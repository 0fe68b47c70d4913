import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { readyArticle } from "../../test/support/feeds";
import { callWith } from "../../test/support/narration";
import { studioBrowser, studioMemberCookie } from "../../test/support/studio";
import { articles, database } from "../db";

/**
 * Listening numbers end to end (docs/publishers.md "Listening numbers"): the audio route counts by the
 * IAB 2.2 rules after it answers, the embed's beacons count starts and completions, the ledger gives
 * agents' plays, and GET /v1/publishers/{publisher}/stats reads them, for that publisher only.
 */

const PUBLISHER = "Harbour Gazette";
const APPLE = "AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
/** The address callWith sends from (test/support/narration.ts). */
const ADDRESS = "203.0.113.9";
const today = () => new Date().toISOString().slice(0, 10);

/** A 600-second episode of 600,000 bytes: a minute is 60,000 bytes. */
async function episode(publisher = PUBLISHER) {
  const article = await readyArticle({ publisher }, { size: 600_000, duration: 600 });
  await database(env).update(articles).set({ listenSeconds: 600 }).where(eq(articles.id, article.id));
  return article;
}

async function keyOf(publisher: string): Promise<string> {
  const res = await call(`/v1/admin/publishers/${encodeURIComponent(publisher)}/keys`, { method: "POST", headers: adminHeaders });
  return ((await res.json()) as { key: string }).key;
}

/** The audio route, its counting (ctx.waitUntil) awaited. */
const listen = (key: string, headers: Record<string, string>, method = "GET") => callWith(null, `/v1/audio/${key}.mp3`, { method, headers });

const stats = (publisher: string, key: string, query = "") =>
  call(`/v1/publishers/${encodeURIComponent(publisher)}/stats${query}`, { headers: { Authorization: `Bearer ${key}` } });

describe("downloads through the audio route", () => {
  it("ranges summed over requests make one download, for the app the user agent names; a bot and a HEAD make none", async () => {
    const article = await episode();
    for (const range of ["bytes=0-1", "bytes=0-29999", "bytes=30000-59998"]) {
      const res = await listen(article.audioKey!, { Range: range, "User-Agent": APPLE });
      expect(res.status).toBe(206);
      await res.arrayBuffer();
    }
    await listen(article.audioKey!, { "User-Agent": BINGBOT }).then((r) => r.arrayBuffer());
    await listen(article.audioKey!, { "User-Agent": FIREFOX }, "HEAD");
    const key = await keyOf(PUBLISHER);
    // 59,999 bytes: one byte short of the minute.
    const before = (await (await stats(PUBLISHER, key)).json()) as { days: { date: string; downloads: number }[] };
    expect(before.days.at(-1)).toMatchObject({ date: today(), downloads: 0 });

    await listen(article.audioKey!, { Range: "bytes=59999-70000", "User-Agent": APPLE }).then((r) => r.arrayBuffer());
    await listen(article.audioKey!, { "User-Agent": APPLE }).then((r) => r.arrayBuffer());
    const res = await stats(PUBLISHER, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      days: { date: string }[];
      articles: { slug: string; downloads: number }[];
      apps: { name: string; downloads: number }[];
    };
    expect(body.days).toHaveLength(30);
    expect(body.days.at(-1)).toEqual({ date: today(), downloads: 1, listeners: 1, starts: 0, completions: 0, agent_plays: 0 });
    expect(body.articles).toEqual([{ slug: article.slug, title: article.title, downloads: 1, starts: 0, completions: 0 }]);
    expect(body.apps).toEqual([{ name: "Apple Podcasts", downloads: 1 }]);
  });

  it("no table of the database holds the listener's address or user agent after downloads and beacons", async () => {
    const article = await episode();
    await listen(article.audioKey!, { "User-Agent": APPLE }).then((r) => r.arrayBuffer());
    await callWith(null, `/v1/articles/${article.slug}/beacons`, jsonBody("POST", { event: "start" }, { "User-Agent": FIREFOX }));
    expect(await env.DB.prepare("SELECT SUM(downloads) + SUM(starts) AS n FROM listening_days").first("n")).toBe(2);
    const tables = (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>()).results.map((t) => t.name);
    expect(tables).toContain("download_windows");
    let scanned = 0;
    for (const table of tables) {
      const rows = await env.DB.prepare(`SELECT * FROM "${table}"`)
        .all()
        .catch(() => null);
      if (!rows) continue;
      const text = JSON.stringify(rows.results);
      scanned += rows.results.length;
      expect(text, table).not.toContain(ADDRESS);
      expect(text, table).not.toContain("AppleCoreMedia");
      expect(text, table).not.toContain("Firefox/133");
    }
    expect(scanned).toBeGreaterThan(5);
  });
});

describe("the embed player's beacons", () => {
  it("count a start and a completion once per listener a day, never a bot's, and refuse an unknown event", async () => {
    const article = await episode();
    const beacon = (event: string, ua = FIREFOX) => callWith(null, `/v1/articles/${article.slug}/beacons`, jsonBody("POST", { event }, { "User-Agent": ua }));
    expect((await beacon("start")).status).toBe(204);
    await beacon("start");
    await beacon("complete");
    await beacon("start", BINGBOT);
    expect((await beacon("pause")).status).toBe(422);
    const body = (await (await stats(PUBLISHER, await keyOf(PUBLISHER))).json()) as { days: object[]; apps: object[] };
    expect(body.days.at(-1)).toMatchObject({ starts: 1, completions: 1, downloads: 0 });
    // Beacons are not downloads: no app is listed by downloads.
    expect(body.apps).toEqual([]);
  });

  it("the embed carries the beacon address; the article page does not", async () => {
    const article = await episode();
    const embed = await (await call(`/embed/article/${article.slug}`)).text();
    expect(embed).toContain(`data-beacon="${env.BASE_URL}/v1/articles/${article.slug}/beacons"`);
    const page = await (await call(`/articles/${article.slug}`)).text();
    expect(page).not.toContain("data-beacon");
  });
});

describe("GET /v1/publishers/{publisher}/stats", () => {
  it("counts agents' plays from the ledger, and only the publisher's own", async () => {
    const article = await episode();
    const key = await keyOf(PUBLISHER);
    const play = (agent_id?: string) =>
      call(
        "/v1/plays",
        jsonBody("POST", { article_slug: article.slug, amount_micros: 1000, ...(agent_id ? { agent_id } : {}) }, { Authorization: `Bearer ${key}` }),
      );
    expect((await play("agent-7")).status).toBe(200);
    expect((await play()).status).toBe(200);
    const body = (await (await stats(PUBLISHER, key)).json()) as { days: { agent_plays: number }[] };
    expect(body.days.at(-1)?.agent_plays).toBe(1);
  });

  it("answers the days as CSV", async () => {
    await episode();
    const res = await stats(PUBLISHER, await keyOf(PUBLISHER), "?from=2026-01-01&to=2026-01-03&format=csv");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await res.text()).toBe(
      "date,downloads,listeners,starts,completions,agent_plays\r\n2026-01-01,0,0,0,0,0\r\n2026-01-02,0,0,0,0,0\r\n2026-01-03,0,0,0,0,0\r\n",
    );
  });

  it("is another publisher's 404, a 401 without a key, and the operator's to read", async () => {
    const other = await keyOf("Inland Courier");
    expect((await stats(PUBLISHER, other)).status).toBe(404);
    expect((await call(`/v1/publishers/${encodeURIComponent(PUBLISHER)}/stats`)).status).toBe(401);
    const operator = await call(`/v1/publishers/${encodeURIComponent(PUBLISHER)}/stats`, { headers: { "x-service-key": env.SERVICE_API_KEY } });
    expect(operator.status).toBe(200);
  });

  it("refuses a range that ends before it starts, spans more than 366 days or names no real day, with 422", async () => {
    const key = await keyOf(PUBLISHER);
    for (const query of ["?from=2026-02-02&to=2026-02-01", "?from=2025-01-01&to=2026-01-02", "?from=2026-02-30&to=2026-03-01", "?to=tomorrow"]) {
      const res = await stats(PUBLISHER, key, query);
      expect(res.status, query).toBe(422);
      expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0].loc[0]).toBe("query");
    }
    expect((await stats(PUBLISHER, key, "?from=2025-01-01&to=2026-01-01")).status).toBe(200);
  });
});

describe("a member's numbers (the studio session, a viewer's too)", () => {
  const path = `/v1/publishers/${encodeURIComponent(PUBLISHER)}/stats`;

  it("the API answers a member's studio session, and another publisher's member gets a 404", async () => {
    const article = await episode();
    await listen(article.audioKey!, { "User-Agent": APPLE }).then((r) => r.arrayBuffer());
    const viewer = await studioMemberCookie(PUBLISHER, "vi@example.test", "viewer");
    const res = await call(path, { headers: { Cookie: viewer } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { days: object[] }).days.at(-1)).toMatchObject({ date: today(), downloads: 1 });
    const outsider = await studioMemberCookie("Inland Courier", "in@example.test", "editor");
    expect((await call(path, { headers: { Cookie: outsider } })).status).toBe(404);
    // A member removed since signing in: the session opens nothing.
    await call(`/v1/admin/publishers/${encodeURIComponent(PUBLISHER)}/members/vi%40example.test`, { method: "DELETE", headers: adminHeaders });
    expect((await call(path, { headers: { Cookie: viewer } })).status).toBe(401);
  });

  it("the studio's page draws the days, the top articles and the apps, and downloads the days as CSV", async () => {
    const article = await episode();
    await listen(article.audioKey!, { "User-Agent": APPLE }).then((r) => r.arrayBuffer());
    const viewer = await studioBrowser(PUBLISHER, "vi@example.test", "viewer");
    const page = await viewer.get(`/studio/${encodeURIComponent(PUBLISHER)}/stats`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(
      new RegExp(`<svg class="days-chart"[^>]* role="img" aria-label="1 download from [0-9-]+ to ${today()}; the most, 1, on ${today()}\\."`),
    );
    expect(html).toContain(`<th scope="row">${today()}</th><td>1</td><td>1</td>`);
    expect(html).toContain(`<li>${article.title}: <strong>1</strong>`);
    expect(html).toContain("<li>Apple Podcasts: <strong>1</strong>");
    const csvHref = /<a href="([^"]+)" download>Download the days as CSV<\/a>/.exec(html)![1].replace(/&amp;/g, "&");
    const csv = await viewer.get(csvHref);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect((await csv.text()).split("\r\n").at(-2)).toBe(`${today()},1,1,0,0,0`);
    // The period: a chosen range, and one that names no real day is the page again with why (422).
    const week = await (await viewer.get(`/studio/${encodeURIComponent(PUBLISHER)}/stats?from=2026-01-01&to=2026-01-07`)).text();
    expect(week.match(/<th scope="row">/g)).toHaveLength(7);
    const bad = await viewer.get(`/studio/${encodeURIComponent(PUBLISHER)}/stats?from=2026-02-30&to=2026-03-01`);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("That period cannot be shown");
    // Another publisher's numbers are no page of this member's.
    expect((await viewer.get("/studio/Inland%20Courier/stats")).status).toBe(404);
  });
});
