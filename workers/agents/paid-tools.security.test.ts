import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addArticle, addListener } from "../../test/support/articles";
import { testVars } from "../../test/vars";
import worker from "../api";
import { agentFeeds, database, listeners, renderJobs } from "../db";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from "./x402/mcp-transport";
import { walletEmail } from "./wallet-listener";
import { recorded, reservations, signedWith, walletAgent } from "../../test/support/x402";

/**
 * Attacks on the paid tools through the real routes (issue 29 items 2 and 4): what an attacker sends,
 * and what must not happen. Prices are docs/agents/payments.md "Prices": a render 20,000 units, a subscription 10,000.
 */

let clients = 0;

/** The API Worker with `vars` over the test configuration, asked by one client address per platform. */
function platform(vars: Record<string, string> = {}) {
  const configured = { ...env, ...vars } as Env;
  const base = vars.BASE_URL ?? testVars.BASE_URL;
  const ip = `198.51.100.${(clients++ % 250) + 1}`;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(typeof input === "string" ? new URL(input, base) : input, init);
    const headers = new Headers(request.headers);
    headers.set("cf-connecting-ip", ip);
    return worker.fetch(new Request(request, { headers }), configured, createExecutionContext());
  };
  /** An official MCP SDK client of this platform's /mcp/v1. */
  const mcp = async () => {
    const client = new Client({ name: "attacker", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp/v1", base), { fetch }));
    return client;
  };
  return { fetch, mcp };
}

/** The PaymentRequired of a 402, as the x402 client reads it. */
async function quoteOf(http: ReturnType<typeof walletAgent>["http"], res: Response): Promise<PaymentRequired> {
  expect(res.status).toBe(402);
  return http.getPaymentRequiredResponse((name) => res.headers.get(name), await res.json());
}

async function errorOf(res: Response): Promise<string | undefined> {
  expect(res.status).toBe(402);
  return (await res.json<PaymentRequired>()).error;
}

const rendersOf = (articleId: number) => database(env).$count(renderJobs, eq(renderJobs.articleId, articleId));
const walletListeners = (address: string) => database(env).$count(listeners, eq(listeners.walletAddress, address));
const subscribeBody = (verticals: string[], headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  body: JSON.stringify({ verticals }),
  headers: { "content-type": "application/json", ...headers },
});

describe("one authorization buys one call (issue 29 item 2)", () => {
  it("REST: the same authorization sent at once for three voices renders one narration and books one payment", async () => {
    // No wait for the render: the answer is "pending" as soon as the job exists.
    const api = platform({ AGENT_AUDIO_WAIT_SECONDS: "0" });
    const article = await addArticle();
    const { http } = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    const required = await quoteOf(http, await api.fetch(path));
    expect(required.accepts[0].amount).toBe("20000");
    const payment = http.encodePaymentSignatureHeader(await http.createPaymentPayload(required));

    const answers = await Promise.all(["en-GB-female", "en-GB-male", "en-US-male"].map((voice) => api.fetch(`${path}?voice=${voice}`, { headers: payment })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    expect(await answers.find((r) => r.status === 200)!.json()).toMatchObject({ state: "pending", cached: false });
    for (const refused of answers.filter((r) => r.status === 402)) expect(await errorOf(refused)).toMatch(/^replay: /);
    expect(await rendersOf(article.id)).toBe(1);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });

  it("MCP: the same authorization sent at once for three subscriptions subscribes once and books one payment", async () => {
    const client = await platform().mcp();
    const { account, http } = walletAgent();
    const unpaid = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } });
    const payload = await http.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);

    const results = await Promise.all(
      [["tech"], ["science"], ["sports"]].map((verticals) =>
        client.callTool({ name: "subscribe_topic", arguments: { verticals }, _meta: { [MCP_PAYMENT_META]: payload } }),
      ),
    );
    const served = results.filter((r) => !r.isError);
    expect(served).toHaveLength(1);
    for (const refused of results.filter((r) => r.isError)) expect((refused.structuredContent as { error: string }).error).toMatch(/^replay: /);
    expect(await walletListeners(account.address)).toBe(1);
    const feeds = await database(env).select().from(agentFeeds);
    expect(feeds.map((f) => f.verticals)).toEqual([(served[0].structuredContent as { verticals: string[] }).verticals]);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
    await client.close();
  });
});

describe("an authorization that expires before the call can settle is refused before any work (issue 29 item 2)", () => {
  it("REST get_audio_url: nothing is rendered, and the article's next quote is still the render price", async () => {
    const api = platform({ AGENT_AUDIO_WAIT_SECONDS: "0" });
    const article = await addArticle();
    const { http } = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    // Valid for 7 more seconds: the attack that once got a render that was never settled.
    const payload = await signedWith(http, await quoteOf(http, await api.fetch(path)), { maxTimeoutSeconds: 7 });
    expect(await errorOf(await api.fetch(path, { headers: http.encodePaymentSignatureHeader(payload) }))).toMatch(/^expires_too_soon: /);
    expect(await rendersOf(article.id)).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
    expect(await reservations()).toBe(0);
    expect((await quoteOf(http, await api.fetch(path))).accepts[0].amount).toBe("20000");
  });

  it("REST and MCP subscribe_topic: no subscription is made", async () => {
    const api = platform();
    const { account, http } = walletAgent();
    const required = await quoteOf(http, await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"])));
    const rest = await signedWith(http, required, { maxTimeoutSeconds: 7 });
    expect(await errorOf(await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"], http.encodePaymentSignatureHeader(rest))))).toMatch(
      /^expires_too_soon: /,
    );

    const client = await api.mcp();
    const unpaid = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } });
    const viaMcp: PaymentPayload = await signedWith(http, unpaid.structuredContent as unknown as PaymentRequired, { maxTimeoutSeconds: 7 });
    const refused = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] }, _meta: { [MCP_PAYMENT_META]: viaMcp } });
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as { error: string }).error).toMatch(/^expires_too_soon: /);

    expect(await walletListeners(account.address)).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
    await client.close();
  });
});

describe("work that lasts runs only on a settled payment (issue 29 item 2)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /**
   * A facilitator (faked at fetch) that verifies the payment and then cannot settle it: what a payer gets
   * by moving the funds away, or cancelling the authorization (EIP-3009 cancelAuthorization), once the
   * payment was verified.
   */
  function verifiesButNeverSettles() {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === "/verify") return Response.json({ isValid: true });
      return Response.json({ success: false, errorReason: "insufficient_funds", transaction: "", network: "eip155:84532" });
    });
    return platform({ BASE_URL: "https://narration.example.com", X402_FACILITATOR_URL: "https://facilitator.example.com", AGENT_AUDIO_WAIT_SECONDS: "0" });
  }

  it("REST get_audio_url: nothing is rendered", async () => {
    const api = verifiesButNeverSettles();
    const article = await addArticle();
    const { http } = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    const payload = await http.createPaymentPayload(await quoteOf(http, await api.fetch(path)));
    expect(await errorOf(await api.fetch(path, { headers: http.encodePaymentSignatureHeader(payload) }))).toMatch(/^settlement_failed: .*insufficient_funds/);
    expect(await rendersOf(article.id)).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it("REST subscribe_topic: nobody is subscribed", async () => {
    const api = verifiesButNeverSettles();
    const { account, http } = walletAgent();
    const payload = await http.createPaymentPayload(await quoteOf(http, await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"]))));
    const res = await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"], http.encodePaymentSignatureHeader(payload)));
    expect(await errorOf(res)).toMatch(/^settlement_failed: /);
    expect(await walletListeners(account.address)).toBe(0);
    expect(await database(env).$count(agentFeeds)).toBe(0);
  });
});

describe("work that fails after its payment settled", () => {
  // The wallet's subscription address is taken by another row (wallet-listener.ts: 409), which only the
  // subscription itself finds out, once the payment is settled.
  it("is answered with its error and the settlement on both transports, and booked once each", async () => {
    const api = platform();
    const { account, http } = walletAgent();
    await addListener({ email: walletEmail(account.address) });

    const required = await quoteOf(http, await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"])));
    const rest = await api.fetch(
      "/v1/agent/subscriptions",
      subscribeBody(["tech"], http.encodePaymentSignatureHeader(await http.createPaymentPayload(required))),
    );
    expect(rest.status).toBe(409);
    expect(await rest.json()).toMatchObject({ code: "conflict" });
    expect(decodePaymentResponseHeader(rest.headers.get("PAYMENT-RESPONSE")!)).toMatchObject({ success: true, payer: account.address });

    const client = await api.mcp();
    const unpaid = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } });
    const payload = await http.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
    const viaMcp = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] }, _meta: { [MCP_PAYMENT_META]: payload } });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.structuredContent).toMatchObject({ code: "conflict" });
    expect(viaMcp._meta?.[MCP_PAYMENT_RESPONSE_META]).toMatchObject({ success: true, payer: account.address });

    expect(await recorded()).toEqual({ calls: 2, legs: 6, nonces: 2 });
    await client.close();
  });
});

describe("the exact price (issue 35 item 1)", () => {
  it("REST subscribe_topic: 9,999 units are refused however labelled and subscribe nobody; 10,000 subscribe", async () => {
    const api = platform();
    const { account, http } = walletAgent();
    const required = await quoteOf(http, await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"])));
    expect(required.accepts[0].amount).toBe("10000");
    const send = (payload: PaymentPayload) => api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"], http.encodePaymentSignatureHeader(payload)));

    const labelled = await http.createPaymentPayload({ ...required, accepts: [{ ...required.accepts[0], amount: "9999" }] });
    expect(await errorOf(await send(labelled))).toBe("amount_mismatch: the payment is for 9999, the price is 10000");
    expect(await errorOf(await send(await signedWith(http, required, { amount: "9999" })))).toMatch(/^amount_mismatch: .*value_mismatch\)$/);
    expect(await walletListeners(account.address)).toBe(0);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });

    expect((await send(await http.createPaymentPayload(required))).status).toBe(200);
    expect(await walletListeners(account.address)).toBe(1);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });
});

describe("a call refused before settlement costs nothing and keeps the authorization", () => {
  it("REST digest over the agent's budget: 429, nothing settled, and the same authorization pays once the budget allows", async () => {
    // A digest takes 5 units of the per-agent budget (docs/rules.md "Rules" 8): a budget of 4 refuses every one.
    const tight = platform({ RATE_LIMIT_READ_PER_MINUTE: "4" });
    const { http } = walletAgent();
    const required = await quoteOf(
      http,
      await tight.fetch("/v1/agent/digest", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
    );
    const payment = http.encodePaymentSignatureHeader(await http.createPaymentPayload(required));
    const digest = (api: ReturnType<typeof platform>) =>
      api.fetch("/v1/agent/digest", { method: "POST", body: "{}", headers: { "content-type": "application/json", ...payment } });

    const over = await digest(tight);
    expect(over.status).toBe(429);
    expect((await over.json<{ detail: string }>()).detail).toMatch(/budget/);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
    expect(await reservations()).toBe(0);

    expect((await digest(platform())).status).toBe(200);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });
});

describe("the local facilitator never takes payments from the public (issue 29 item 4)", () => {
  const PUBLIC = { BASE_URL: "https://narration.example.com" };

  it("REST: every paid operation answers 503 with the reason, before any quote", async () => {
    const api = platform(PUBLIC);
    const article = await addArticle();
    const answers = [
      await api.fetch(`/v1/agent/articles/${article.slug}/audio`),
      await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"])),
      await api.fetch("/v1/agent/digest", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers.get("PAYMENT-REQUIRED")).toBeNull();
      expect(await res.json()).toMatchObject({
        code: "unavailable",
        detail:
          "paid tools are off: X402_FACILITATOR_URL is local, which moves no money, and BASE_URL narration.example.com is not this machine; the operator must set a real facilitator",
      });
    }
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it("MCP: a paid tool is a tool error with the reason; free tools still answer", async () => {
    const client = await platform(PUBLIC).mcp();
    const refused = await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      code: "unavailable",
      detail: expect.stringMatching(/^paid tools are off: X402_FACILITATOR_URL is local/),
    });
    const free = await client.callTool({ name: "search_articles", arguments: { query: "owls" } });
    expect(free.isError).toBeFalsy();
    await client.close();
  });

  it.each(["http://127.0.0.1:8787", "http://127.3.2.1", "http://localhost:8787", "http://[::1]:8787"])(
    "quotes as usual on this machine (%s)",
    async (BASE_URL) => {
      const { http } = walletAgent();
      expect((await quoteOf(http, await platform({ BASE_URL }).fetch("/v1/agent/subscriptions", subscribeBody(["tech"])))).accepts[0].amount).toBe("10000");
    },
  );

  it("quotes as usual at a public address with a real facilitator", async () => {
    const { http } = walletAgent();
    const api = platform({ ...PUBLIC, X402_FACILITATOR_URL: "https://facilitator.example.com" });
    expect((await quoteOf(http, await api.fetch("/v1/agent/subscriptions", subscribeBody(["tech"])))).accepts[0].amount).toBe("10000");
  });
});
