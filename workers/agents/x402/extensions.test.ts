import { env } from "cloudflare:workers";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import { extractDiscoveryInfo, validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import {
  extractReceiptPayload,
  type JWSSignedReceipt,
  OFFER_RECEIPT,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { appendPaymentIdentifierToExtensions, generatePaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../../test/support/articles";
import { call } from "../../../test/support/client";
import { mcpClient } from "../../../test/support/mcp-client";
import { recorded, walletAgent } from "../../../test/support/x402";
import { testVars } from "../../../test/vars";
import { database, x402Calls } from "../../db";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from "./mcp-transport";

/**
 * The x402 extensions of the paid tools, exercised with the official client packages and verified with
 * the extensions' own functions, as an outside client or discovery service would: bazaar (discovery),
 * payment-identifier (idempotent payments) and offer-receipt (signed offers and receipts).
 */

type PublicJwk = Exclude<Parameters<typeof verifyReceiptSignatureJWS>[1], undefined>;

/** The platform's published key: the verification method of its DID document. */
async function publishedKey() {
  const res = await call("/.well-known/did.json");
  expect(res.status).toBe(200);
  const doc = await res.json<{ id: string; verificationMethod: { id: string; publicKeyJwk: PublicJwk }[] }>();
  expect(doc.id).toBe(`did:web:${new URL(testVars.BASE_URL).host}`);
  return doc.verificationMethod[0];
}

/** The receipt in a settlement, verified against the published key; its payload. */
async function verifiedReceipt(settlement: SettleResponse) {
  const receipt = (settlement.extensions![OFFER_RECEIPT] as { info: { receipt: JWSSignedReceipt } }).info.receipt;
  const key = await publishedKey();
  const payload = await verifyReceiptSignatureJWS(receipt, key.publicKeyJwk);
  return { payload: payload as typeof payload & { id: number }, receipt };
}

/** A digest payment over REST carrying `id` (the client appends it to the extensions it echoes). */
async function digestPayment(http: ReturnType<typeof walletAgent>["http"], id: string): Promise<PaymentPayload> {
  const quote = await call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const required = http.getPaymentRequiredResponse((name) => quote.headers.get(name), await quote.json());
  const payload = await http.createPaymentPayload(required);
  return { ...payload, extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), id) };
}

const payDigest = (http: ReturnType<typeof walletAgent>["http"], payload: PaymentPayload) =>
  call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json", ...http.encodePaymentSignatureHeader(payload) }, body: "{}" });

describe("bazaar: the paid tools describe themselves for discovery", () => {
  it("declares a REST operation with its method, path parameters and query, as a facilitator extracts it", async () => {
    const article = await addArticle();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    const { http } = walletAgent();
    const res = await call(path);
    const required = http.getPaymentRequiredResponse((name) => res.headers.get(name), await res.json());
    const bazaar = required.extensions?.bazaar as DiscoveryExtension;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(bazaar).toMatchObject({
      routeTemplate: "/v1/agent/articles/:slug/audio",
      info: { input: { type: "http", method: "GET", pathParams: { slug: article.slug } } },
    });
    // The discovery service reads it from the payment that echoes it, beside the requirement paid, and
    // catalogs the operation once, under its route template rather than each article's URL.
    const payload = await http.createPaymentPayload(required);
    const found = extractDiscoveryInfo(payload, required.accepts[0]);
    expect(found).toMatchObject({ resourceUrl: `${testVars.BASE_URL}/v1/agent/articles/:slug/audio`, method: "GET", x402Version: 2 });
  });

  it("declares a JSON body for POST operations", async () => {
    const res = await call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const bazaar = (await res.json<PaymentRequired>()).extensions?.bazaar as DiscoveryExtension;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(bazaar.info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json" });
    expect(Object.keys((bazaar.schema.properties.input.properties as unknown as { body: { properties: object } }).body.properties)).toEqual([
      "verticals",
      "window",
      "limit",
    ]);
  });

  it("declares an MCP tool with the inputSchema tools/list shows", async () => {
    const client = await mcpClient();
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: "digest", arguments: {} });
    const bazaar = (result.structuredContent as unknown as PaymentRequired).extensions?.bazaar as DiscoveryExtension;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(bazaar.info.input).toEqual({
      type: "mcp",
      toolName: "digest",
      description: tools.find((t) => t.name === "digest")!.description,
      transport: "streamable-http",
      inputSchema: tools.find((t) => t.name === "digest")!.inputSchema,
    });
    await client.close();
  });
});

describe("offer-receipt: signed offers and receipts under the published key", () => {
  it("signs the quote: the offer verifies with the DID document's key and names the price and resource", async () => {
    const res = await call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const required = await res.json<PaymentRequired>();
    const { offers } = (required.extensions![OFFER_RECEIPT] as { info: { offers: { format: "jws"; signature: string }[] } }).info;
    const key = await publishedKey();
    const offer = await verifyOfferSignatureJWS(offers[0], key.publicKeyJwk);
    expect(offer).toMatchObject({
      resourceUrl: `${testVars.BASE_URL}/v1/agent/digest`,
      amount: required.accepts[0].amount,
      payTo: required.accepts[0].payTo,
      network: "eip155:84532",
    });
    // Tampered: another amount under the same signature fails.
    const [head, , sig] = offers[0].signature.split(".");
    const forged = btoa(JSON.stringify({ ...offer, amount: "1" }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    await expect(verifyOfferSignatureJWS({ format: "jws", signature: `${head}.${forged}.${sig}` }, key.publicKeyJwk)).rejects.toThrow();
  });

  it("returns with every settled call a receipt whose id is the call's ledger row, over REST and MCP", async () => {
    const { account, http } = walletAgent();
    const rest = await payDigest(http, await digestPayment(http, generatePaymentId()));
    expect(rest.status).toBe(200);
    const restSettlement = decodePaymentResponseHeader(rest.headers.get("PAYMENT-RESPONSE")!);
    const { payload } = await verifiedReceipt(restSettlement);
    const [row] = await database(env).select().from(x402Calls);
    expect(payload).toMatchObject({ id: row.id, payer: account.address, network: "eip155:84532", resourceUrl: `${testVars.BASE_URL}/v1/agent/digest` });
    expect(payload.issuedAt).toBe(Math.floor(row.createdAt.getTime() / 1000));

    const client = await mcpClient();
    const required = (await client.callTool({ name: "digest", arguments: {} })).structuredContent as unknown as PaymentRequired;
    const paid = await client.callTool({ name: "digest", arguments: {}, _meta: { [MCP_PAYMENT_META]: await http.createPaymentPayload(required) } });
    expect(paid.isError).toBeFalsy();
    const mcp = await verifiedReceipt(paid._meta?.[MCP_PAYMENT_RESPONSE_META] as SettleResponse);
    const rows = await database(env).select().from(x402Calls);
    expect(mcp.payload).toMatchObject({ id: rows[1].id, resourceUrl: "mcp://tool/digest" });
    await client.close();
  });

  it("a receipt altered after signing does not verify", async () => {
    const { http } = walletAgent();
    const res = await payDigest(http, await digestPayment(http, generatePaymentId()));
    const { receipt } = await verifiedReceipt(decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!));
    const [head, , sig] = receipt.signature.split(".");
    const forged = btoa(JSON.stringify({ ...extractReceiptPayload(receipt), id: 999 }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    await expect(verifyReceiptSignatureJWS({ format: "jws", signature: `${head}.${forged}.${sig}` }, (await publishedKey()).publicKeyJwk)).rejects.toThrow();
  });
});

describe("payment-identifier: a repeated payment is charged once", () => {
  it("answers a repeat with the same identifier and payment with the first result and receipt, without a second charge", async () => {
    const { http } = walletAgent();
    const payload = await digestPayment(http, generatePaymentId());
    const first = await payDigest(http, payload);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const firstReceipt = await verifiedReceipt(decodePaymentResponseHeader(first.headers.get("PAYMENT-RESPONSE")!));
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });

    for (let i = 0; i < 3; i++) {
      const again = await payDigest(http, payload);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(firstBody);
      const repeat = await verifiedReceipt(decodePaymentResponseHeader(again.headers.get("PAYMENT-RESPONSE")!));
      expect(repeat.payload).toEqual(firstReceipt.payload);
    }
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });

  it("refuses the same identifier with another payment (409 Conflict), charging nothing", async () => {
    const { http } = walletAgent();
    const id = generatePaymentId();
    expect((await payDigest(http, await digestPayment(http, id))).status).toBe(200);
    const other = await payDigest(http, await digestPayment(http, id));
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: "conflict" });
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });

  it("without an identifier, a replayed payment is refused as before (replay), not answered again", async () => {
    const { http } = walletAgent();
    const quote = await call("/v1/agent/digest", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const payload = await http.createPaymentPayload(http.getPaymentRequiredResponse((name) => quote.headers.get(name), await quote.json()));
    expect(payload.extensions?.[PAYMENT_IDENTIFIER]).toBeDefined(); // declared by the server, echoed without an id
    expect((await payDigest(http, payload)).status).toBe(200);
    const replay = await payDigest(http, payload);
    expect(replay.status).toBe(402);
    expect((await replay.json<PaymentRequired>()).error).toMatch(/^replay/);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });

  it("never compiles the schema a payment echoes: Workers refuse code generation, and the payer's schema is not ours to run", async () => {
    // Planted: paymentIdOf through extractAndValidatePaymentIdentifier, which compiles this schema with Ajv
    // (under wrangler dev that refused every payment the official client made from our 402).
    const { http } = walletAgent();
    const payload = await digestPayment(http, generatePaymentId());
    (payload.extensions![PAYMENT_IDENTIFIER] as { schema: unknown }).schema = {
      type: "object",
      required: ["nothing-sent"],
      properties: { id: { pattern: "(" } },
    };
    expect((await payDigest(http, payload)).status).toBe(200);
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });

  it("refuses a malformed identifier before anything happens", async () => {
    const { http } = walletAgent();
    const payload = await digestPayment(http, generatePaymentId());
    (payload.extensions![PAYMENT_IDENTIFIER] as { info: { id: string } }).info.id = "short";
    const res = await payDigest(http, payload);
    expect(res.status).toBe(402);
    expect((await res.json<PaymentRequired>()).error).toBe("invalid_payload: payment-identifier: an id is 16 to 128 characters of A-Z, a-z, 0-9, - and _");
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });
});
