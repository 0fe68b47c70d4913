import { env } from "cloudflare:workers";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { database, x402Calls } from "../../db";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META, type ToolResult } from "./mcp-transport";
import { get_audio_url } from "../tools";
import { mcpPayments, paidCall } from "./paid-call";
import type { PriceState } from "./prices";
import { recorded, walletAgent } from "../../../test/support/x402";

/** get_audio_url's prices as docs/agents/payments.md "Prices" states them, in USDC atomic units. */
const CACHED_PRICE = 1_000;
const RENDER_PRICE = 20_000;

/**
 * A paid MCP tool wired as the MCP surface wires one: `params._meta` in, a CallToolResult out. The
 * params go through JSON as on the wire. `audio.cached` is the state the tool sees when called.
 */
function sampleTool(audio: PriceState) {
  return (params: { arguments: { slug: string }; _meta?: Record<string, unknown> }): Promise<ToolResult> => {
    const wire = JSON.parse(JSON.stringify(params)) as typeof params;
    return paidCall(mcpPayments(get_audio_url, wire._meta), {
      env,
      tool: "get_audio_url",
      state: audio,
      settle: "before_work",
      subject: JSON.stringify(wire.arguments),
      run: async () => ({ value: { audio_url: `https://api.test/v1/audio/${wire.arguments.slug}.mp3` }, publishers: ["Daily Planet"] }),
      render: (value) => ({ structuredContent: value, content: [{ type: "text", text: JSON.stringify(value) }] }),
    });
  };
}

/** What an x402 MCP client does with an isError result: prefer structuredContent, else parse content[0].text. */
function paymentRequiredOf(result: ToolResult): PaymentRequired {
  return (result.structuredContent ?? JSON.parse(result.content[0].text)) as unknown as PaymentRequired;
}

describe("x402 over MCP (transports-v2/mcp.md)", () => {
  it("signals payment required as an isError result with the PaymentRequired in structuredContent and text", async () => {
    const result = await sampleTool({ cached: true })({ arguments: { slug: "a" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      x402Version: 2,
      resource: { url: "mcp://tool/get_audio_url" },
      accepts: [{ scheme: "exact", network: "eip155:84532", amount: String(CACHED_PRICE), payTo: env.X402_PAY_TO, extra: { name: "USDC", version: "2" } }],
    });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });

  it("takes the PaymentPayload as a JSON object in _meta and returns the settlement in result._meta", async () => {
    const { account, http } = walletAgent();
    const tool = sampleTool({ cached: true });
    const payload = await http.createPaymentPayload(paymentRequiredOf(await tool({ arguments: { slug: "a" } })));
    const result = await tool({ arguments: { slug: "a" }, _meta: { [MCP_PAYMENT_META]: payload } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ audio_url: "https://api.test/v1/audio/a.mp3" });
    expect(result._meta?.[MCP_PAYMENT_RESPONSE_META]).toMatchObject({
      success: true,
      network: "eip155:84532",
      payer: account.address,
      transaction: expect.stringMatching(/^local:/),
    });
    expect(await recorded()).toEqual({ calls: 1, legs: 3, nonces: 1 });
  });

  it("refuses the older base64-string form with the PaymentRequired and its reason", async () => {
    const { http } = walletAgent();
    const tool = sampleTool({ cached: true });
    const payload = await http.createPaymentPayload(paymentRequiredOf(await tool({ arguments: { slug: "a" } })));
    const result = await tool({ arguments: { slug: "a" }, _meta: { [MCP_PAYMENT_META]: encodePaymentSignatureHeader(payload) } });
    expect(result.isError).toBe(true);
    expect(paymentRequiredOf(result).error).toMatch(/^invalid_payload: /);
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });
});

describe("get_audio_url priced by cache state", () => {
  it("honours a render quote when the audio became cached before the payment, charging what was signed", async () => {
    const { http } = walletAgent();
    const quoted = paymentRequiredOf(await sampleTool({ cached: false })({ arguments: { slug: "a" } }));
    expect(quoted.accepts[0].amount).toBe(String(RENDER_PRICE));
    const payload = await http.createPaymentPayload(quoted);
    // Rendered meanwhile: the tool now sees cached audio and quotes the cached price, but the signed quote stands.
    const result = await sampleTool({ cached: true })({ arguments: { slug: "a" }, _meta: { [MCP_PAYMENT_META]: payload } });
    expect(result.isError).toBeUndefined();
    const [call] = await database(env).select().from(x402Calls);
    expect(call.amountMicros).toBe(RENDER_PRICE);
  });

  it("refuses a cached-price payment for audio that must be rendered, with a fresh quote", async () => {
    const { http } = walletAgent();
    const cheap = await http.createPaymentPayload(paymentRequiredOf(await sampleTool({ cached: true })({ arguments: { slug: "a" } })));
    const result = await sampleTool({ cached: false })({ arguments: { slug: "a" }, _meta: { [MCP_PAYMENT_META]: cheap } });
    const required = paymentRequiredOf(result);
    expect(required.error).toMatch(/^amount_mismatch: /);
    expect(required.accepts[0].amount).toBe(String(RENDER_PRICE));
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
  });
});
