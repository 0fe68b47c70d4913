import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { splitPlay } from "../kernel/ledger-split";
import { subscribeVia } from "../../test/support/listeners";

describe("splitPlay (70/20/10 in whole micros)", () => {
  it.each([0, 1, 2, 3, 7, 9, 11, 99, 101, 333, 1_000_001, 999_999_999, 123_456_789_013])("sums exactly to %i", (total) => {
    const legs = splitPlay(total);
    expect(legs.publisher + legs.agent_recommender + legs.platform).toBe(total);
    for (const v of Object.values(legs)) expect(Number.isInteger(v) && v >= 0).toBe(true);
  });

  it("splits round amounts exactly and gives the remainder to the publisher", () => {
    expect(splitPlay(1000)).toEqual({ publisher: 700, agent_recommender: 200, platform: 100 });
    expect(splitPlay(7)).toEqual({ publisher: 6, agent_recommender: 1, platform: 0 });
    expect(splitPlay(19)).toEqual({ publisher: 15, agent_recommender: 3, platform: 1 });
  });
});

describe("POST /v1/plays", () => {
  it("writes the play and three legs that sum to its value", async () => {
    const article = await addArticle({ publisher: "Daily Planet" });
    const sub = await subscribeVia("player@example.test");
    const res = await call(
      "/v1/plays",
      jsonBody("POST", { article_slug: article.slug, amount_micros: 333, seconds: 42, listener_token: sub.token, agent_id: "agent-7" }, apiKeyHeaders),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { play_id: number; legs: { entry_id: number; party: string; amount_micros: number }[] };
    expect(body).toMatchObject({ article_slug: article.slug, amount_micros: 333 });
    expect(body.legs.map((l) => [l.party, l.amount_micros])).toEqual([
      ["publisher", 234],
      ["agent_recommender", 66],
      ["platform", 33],
    ]);
    const { results } = await env.DB.prepare("select * from ledger_entries order by id").all<Record<string, unknown>>();
    expect(results).toHaveLength(3);
    for (const row of results) expect(row).toMatchObject({ play_id: body.play_id, publisher: "Daily Planet", source: "play" });
    expect(results.reduce((s, r) => s + (r.amount_micros as number), 0)).toBe(333);
    const play = await env.DB.prepare("select * from plays").first<Record<string, unknown>>();
    expect(play).toMatchObject({ id: body.play_id, seconds: 42, agent_id: "agent-7", amount_micros: 333 });
    expect(play!.listener_id).not.toBeNull();
  });

  it("links each play's legs to its own play", async () => {
    const article = await addArticle();
    const ids = [];
    for (const amount of [10, 20]) {
      const res = await call("/v1/plays", jsonBody("POST", { article_slug: article.slug, amount_micros: amount }, apiKeyHeaders));
      ids.push(((await res.json()) as { play_id: number }).play_id);
    }
    const { results } = await env.DB.prepare("select play_id, sum(amount_micros) as total from ledger_entries group by play_id order by play_id").all();
    expect(results).toEqual([
      { play_id: ids[0], total: 10 },
      { play_id: ids[1], total: 20 },
    ]);
  });

  it.each([
    ["no API key", {}, 401],
    ["an unknown article", apiKeyHeaders, 404],
  ])("answers %s with %i and writes nothing", async (_, headers, status) => {
    const res = await call("/v1/plays", jsonBody("POST", { article_slug: "missing", amount_micros: 5 }, headers));
    expect(res.status).toBe(status);
    expect((await env.DB.prepare("select count(*) as n from ledger_entries").first<{ n: number }>())!.n).toBe(0);
  });

  it("rejects fractional and negative amounts with 422", async () => {
    const article = await addArticle();
    for (const amount_micros of [1.5, -1]) {
      const res = await call("/v1/plays", jsonBody("POST", { article_slug: article.slug, amount_micros }, apiKeyHeaders));
      expect(res.status).toBe(422);
    }
  });
});
