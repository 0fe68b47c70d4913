import { env } from "cloudflare:workers";
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader, x402HTTPClient } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { createSIWxClientHook, createSIWxPayload, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { eq } from "drizzle-orm";
import type { PrivateKeyAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { database, ledgerEntries, listeners, x402Calls } from "../db";
import { mcpClient } from "../../test/support/mcp-client";
import { NO_SINGLE_PUBLISHER } from "./x402/ledger";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from "./x402/mcp-transport";
import { recorded, walletAgent } from "../../test/support/x402";

/** docs/agents/payments.md "Prices" (USDC atomic units), written out so that a changed price table fails here. */
const PRICE = { cachedAudio: 1_000, renderAudio: 20_000, subscribe: 10_000, digest: 50_000 } as const;

/**
 * The paid tools on both surfaces, paid with the official x402 client packages and a throwaway viem
 * key against the local facilitator (docs/agents/tools.md "MCP details" and "Paying agents"), and the subscriptions a wallet holds.
 */

/** An article whose narration is already rendered: get_audio_url's cached price. */
async function renderedArticle(publisher: string) {
  const key = crypto.randomUUID().replaceAll("-", "").padEnd(64, "0");
  const article = await addArticle({ publisher, audioKey: key, listenSeconds: 42 });
  await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values (?, ?, 'done', ?)").bind(`job-${article.id}`, article.id, key).run();
  await env.DB.prepare("insert into audio_objects (key, provider, voice, duration_seconds) values (?, 'offline', 'en-us', 41.6)").bind(key).run();
  return { article, key };
}

/** The call written for a settlement and its legs, as [party, publisher, micros]. */
async function ledgerOf(settlement: string) {
  const db = database(env);
  const [row] = await db.select().from(x402Calls).where(eq(x402Calls.settlement, settlement));
  const legs = await db.select().from(ledgerEntries).where(eq(ledgerEntries.x402CallId, row.id));
  return { call: row, legs: legs.map((l) => [l.party, l.publisher, l.amountMicros, l.source]) };
}

describe("get_audio_url over REST, paid with x402 (HTTP transport)", () => {
  it("answers 402 at the cached price, then the bare audio with PAYMENT-RESPONSE and three legs", async () => {
    const { article, key } = await renderedArticle("Daily Planet");
    const { account, http } = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;

    const unpaid = await call(path);
    expect(unpaid.status).toBe(402);
    expect(unpaid.headers.get("WWW-Authenticate")).toBe(`Bearer resource_metadata="${testVars.BASE_URL}/.well-known/oauth-protected-resource"`);
    const required = http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
    expect(required.accepts[0]).toMatchObject({ scheme: "exact", amount: String(PRICE.cachedAudio), payTo: env.X402_PAY_TO });
    expect(required.resource.url).toBe(`${testVars.BASE_URL}${path}`);

    const payload = await http.createPaymentPayload(required);
    const res = await call(path, { headers: http.encodePaymentSignatureHeader(payload) });
    expect(res.status).toBe(200);
    // A paying caller gets the bare audio, never the sponsor pre-roll.
    expect(await res.json()).toMatchObject({ state: "ready", cached: true, sponsored: false, audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3` });
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
    expect(settlement).toMatchObject({ success: true, payer: account.address, transaction: expect.stringMatching(/^local:\d+$/) });

    const { call: row, legs } = await ledgerOf(settlement.transaction);
    expect(row).toMatchObject({ tool: "get_audio_url", payer: account.address.toLowerCase(), amountMicros: PRICE.cachedAudio, listenerId: null });
    expect(legs).toEqual([
      ["publisher", "Daily Planet", 700, "x402:get_audio_url"],
      ["agent_recommender", "Daily Planet", 200, "x402:get_audio_url"],
      ["platform", "Daily Planet", 100, "x402:get_audio_url"],
    ]);
  });

  it("quotes the render price for audio that does not exist yet, and 404s an unknown article before any quote", async () => {
    const article = await addArticle();
    const res = await call(`/v1/agent/articles/${article.slug}/audio`);
    expect(res.status).toBe(402);
    expect((await res.json<PaymentRequired>()).accepts[0].amount).toBe(String(PRICE.renderAudio));
    expect((await call("/v1/agent/articles/no-such-article/audio")).status).toBe(404);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });
});

describe("digest over MCP, paid with x402 (MCP transport)", () => {
  it("signals the PaymentRequired as a tool error, then runs for the payment in _meta and settles in result._meta", async () => {
    await addArticle({ publisher: "Globe", vertical: "science" });
    await addArticle({ publisher: "Globe", vertical: "science" });
    const { account, http } = walletAgent();
    const client = await mcpClient();

    const unpaid = await client.callTool({ name: "digest", arguments: { verticals: ["science"] } });
    expect(unpaid.isError).toBe(true);
    const required = unpaid.structuredContent as unknown as PaymentRequired;
    expect(JSON.parse((unpaid.content as { text: string }[])[0].text)).toEqual(required);
    expect(required).toMatchObject({ x402Version: 2, resource: { url: "mcp://tool/digest" }, accepts: [{ amount: String(PRICE.digest) }] });

    const payload = await http.createPaymentPayload(required);
    const paid = await client.callTool({ name: "digest", arguments: { verticals: ["science"] }, _meta: { [MCP_PAYMENT_META]: payload } });
    expect(paid.isError).toBeFalsy();
    expect((paid.structuredContent as { articles: { publisher: string }[] }).articles.map((a) => a.publisher)).toEqual(["Globe", "Globe"]);
    const settlement = paid._meta?.[MCP_PAYMENT_RESPONSE_META] as { success: boolean; payer: string; transaction: string };
    expect(settlement).toMatchObject({ success: true, payer: account.address });

    const { call: row, legs } = await ledgerOf(settlement.transaction);
    expect(row).toMatchObject({ tool: "digest", resource: "mcp://tool/digest", amountMicros: PRICE.digest });
    expect(legs).toEqual([
      ["publisher", "Globe", 35_000, "x402:digest"],
      ["agent_recommender", "Globe", 10_000, "x402:digest"],
      ["platform", "Globe", 5_000, "x402:digest"],
    ]);

    // The authorization is spent: a replay is refused with the reason, and nothing more is recorded.
    const replay = await client.callTool({ name: "digest", arguments: { verticals: ["science"] }, _meta: { [MCP_PAYMENT_META]: payload } });
    expect(replay.isError).toBe(true);
    expect((replay.structuredContent as { error: string }).error).toMatch(/^replay: /);
    expect(await recorded()).toMatchObject({ calls: 1, legs: 3 });
    await client.close();
  });
});

/** A wallet agent that answers Sign-In-With-X challenges with the official client hook. */
function siwxAgent(account: PrivateKeyAccount) {
  return new x402HTTPClient(new x402Client()).onPaymentRequired(createSIWxClientHook(account));
}

describe("subscriptions held by a wallet", () => {
  it("subscribe_topic paid over REST creates the wallet's subscription; list_subscriptions finds it by Sign-In-With-X", async () => {
    const { account, http } = walletAgent();
    const quote = await call("/v1/agent/subscriptions", jsonBody("POST", { verticals: ["tech", "science"] }));
    expect(quote.status).toBe(402);
    const required = http.getPaymentRequiredResponse((name) => quote.headers.get(name), await quote.json());
    expect(required.accepts[0].amount).toBe(String(PRICE.subscribe));
    const payload = await http.createPaymentPayload(required);
    const res = await call("/v1/agent/subscriptions", jsonBody("POST", { verticals: ["tech", "science"] }, http.encodePaymentSignatureHeader(payload)));
    expect(res.status).toBe(200);
    const subscribed = await res.json<{ feed_url: string; verticals: string[] }>();
    expect(subscribed.verticals).toEqual(["tech", "science"]);
    expect(subscribed.feed_url).toMatch(new RegExp(`^${testVars.BASE_URL}/`));
    expect((await call(new URL(subscribed.feed_url).pathname)).status).toBe(200);

    // Held by the wallet: its address, a placeholder e-mail that can receive nothing, no digest mail.
    const [holder] = await database(env).select().from(listeners).where(eq(listeners.walletAddress, account.address));
    expect(holder).toMatchObject({ email: `${account.address.toLowerCase()}@wallet.invalid`, active: false, verticals: ["tech", "science"] });
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
    const { call: row, legs } = await ledgerOf(settlement.transaction);
    expect(row.listenerId).toBe(holder.id);
    expect(legs.map(([party, publisher]) => [party, publisher])).toEqual([
      ["publisher", NO_SINGLE_PUBLISHER],
      ["agent_recommender", NO_SINGLE_PUBLISHER],
      ["platform", NO_SINGLE_PUBLISHER],
    ]);

    // A free call: the wallet proves its address with Sign-In-With-X, never with a payment.
    const challenged = await call("/v1/agent/subscriptions");
    expect(challenged.status).toBe(402);
    const challenge = siwxAgent(account).getPaymentRequiredResponse((name) => challenged.headers.get(name), await challenged.json());
    expect(challenge.accepts).toEqual([]);
    expect(challenge.extensions?.[SIGN_IN_WITH_X]).toBeDefined();
    const proof = await siwxAgent(account).handlePaymentRequired(challenge, `${testVars.BASE_URL}/v1/agent/subscriptions`);
    const listed = await call("/v1/agent/subscriptions", { headers: proof! });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      subscriptions: [{ feed_url: subscribed.feed_url, verticals: ["tech", "science"], created_at: expect.any(String), updated_at: expect.any(String) }],
    });

    // A proof works once; the challenge comes back naming why.
    const again = await call("/v1/agent/subscriptions", { headers: proof! });
    expect(again.status).toBe(402);
    expect((await again.json<PaymentRequired>()).error).toMatch(/^invalid_siwx_nonce: /);
  });

  it("a second paid subscribe_topic of the same wallet updates the one subscription", async () => {
    const { account, http } = walletAgent();
    const subscribe = async (verticals: string[]) => {
      const quote = await call("/v1/agent/subscriptions", jsonBody("POST", { verticals }));
      const payload = await http.createPaymentPayload(http.getPaymentRequiredResponse((name) => quote.headers.get(name), await quote.json()));
      const res = await call("/v1/agent/subscriptions", jsonBody("POST", { verticals }, http.encodePaymentSignatureHeader(payload)));
      expect(res.status).toBe(200);
      return res.json<{ feed_url: string; verticals: string[] }>();
    };
    const first = await subscribe(["tech"]);
    const second = await subscribe(["sports"]);
    expect(second).toMatchObject({ feed_url: first.feed_url, verticals: ["sports"] });
    expect(await database(env).$count(listeners, eq(listeners.walletAddress, account.address))).toBe(1);
  });

  it("over MCP: list_subscriptions answers the challenge as a tool error, and the proof in _meta signs the wallet in", async () => {
    const { account } = walletAgent();
    const client = await mcpClient();
    const unsigned = await client.callTool({ name: "list_subscriptions", arguments: {} });
    expect(unsigned.isError).toBe(true);
    const challenge = unsigned.structuredContent as unknown as PaymentRequired;
    expect(challenge).toMatchObject({ x402Version: 2, accepts: [], resource: { url: "mcp://tool/list_subscriptions" } });
    const ext = challenge.extensions![SIGN_IN_WITH_X] as SIWxExtension;
    const endpoint = `${testVars.BASE_URL}/mcp/v1`;
    expect(ext.info.uri).toBe(endpoint);
    const proof = await createSIWxPayload({ ...ext.info, chainId: env.X402_NETWORK, type: "eip191" }, account, endpoint);
    // A wallet that never subscribed holds no feeds.
    const listed = await client.callTool({ name: "list_subscriptions", arguments: {}, _meta: { [SIGN_IN_WITH_X]: proof } });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual({ subscriptions: [] });
    await client.close();
  });
});
