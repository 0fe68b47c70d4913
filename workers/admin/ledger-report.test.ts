import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminHeaders, apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { recordSettledCall } from "../agents/x402/ledger";
import { addArticle } from "../../test/support/articles";

const WALLET = "0x00000000000000000000000000000000000000aa";

async function seed() {
  const article = await addArticle({ publisher: "Daily Planet" });
  for (const [amount, agent] of [
    [1_000, "agent-7"],
    [2_000, undefined],
  ] as const) {
    const res = await call("/v1/plays", jsonBody("POST", { article_slug: article.slug, amount_micros: amount, agent_id: agent }, apiKeyHeaders));
    expect(res.status).toBe(200);
  }
  await recordSettledCall(env, {
    tool: "digest",
    resource: "http://api.test/v1/agent/digest",
    payer: WALLET,
    agentId: `eip155:84532:${WALLET}`,
    listenerId: null,
    network: "eip155:84532",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    amountMicros: 50_000,
    settlement: "local:1",
    publishers: ["Daily Planet", "Herald"],
  });
}

type Report = {
  total_micros: number;
  platform_micros: number;
  publishers: { publisher: string; micros: number; entries: number }[];
  agents: { agent_id: string | null; micros: number; entries: number }[];
  sources: { source: string; micros: number; entries: number }[];
};

async function report(query = ""): Promise<Report> {
  const res = await call(`/v1/admin/ledger/report${query}`, { headers: adminHeaders });
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /v1/admin/ledger/report", () => {
  it("totals plays and paid agent calls per publisher, per agent and per source", async () => {
    await seed();
    const body = await report();
    expect(body.total_micros).toBe(53_000);
    expect(body.platform_micros).toBe(100 + 200 + 5_000);
    expect(body.publishers).toEqual([
      { publisher: "Daily Planet", micros: 700 + 1_400 + 17_500, entries: 3 },
      { publisher: "Herald", micros: 17_500, entries: 1 },
    ]);
    expect(body.agents).toEqual([
      { agent_id: `eip155:84532:${WALLET}`, micros: 10_000, entries: 1 },
      { agent_id: null, micros: 400, entries: 1 },
      { agent_id: "agent-7", micros: 200, entries: 1 },
    ]);
    expect(body.sources).toEqual([
      { source: "play", micros: 3_000, entries: 6 },
      { source: "x402:digest", micros: 50_000, entries: 4 },
    ]);
  });

  it("counts only entries inside the period", async () => {
    await seed();
    const later = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const body = await report(`?from=${later}&to=${later}T23:59:59Z`);
    expect(body).toMatchObject({ total_micros: 0, publishers: [], agents: [], sources: [] });
  });

  it("answers 422 for a malformed date or a period that ends before it starts", async () => {
    for (const query of ["?from=yesterday", "?to=2026-13-45", "?from=2026-11-02&to=2026-11-01"]) {
      const res = await call(`/v1/admin/ledger/report${query}`, { headers: adminHeaders });
      expect(res.status, query).toBe(422);
      expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0].loc[0]).toBe("query");
    }
  });

  it("needs the admin token", async () => {
    expect((await call("/v1/admin/ledger/report")).status).toBe(401);
  });
});
