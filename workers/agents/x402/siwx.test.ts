import { env } from "cloudflare:workers";
import { x402Client } from "@x402/core/client";
import { x402HTTPClient } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { createSIWxClientHook, createSIWxPayload, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { siwxChallenge, walletFromSiwx } from "./siwx";

const URL_SUBS = "https://api.test/v1/agent/subscriptions";
const resource = { url: URL_SUBS, description: "Subscriptions held by this wallet", mimeType: "application/json" };

/** A wallet agent that answers SIWX challenges with the official client hook. */
function signer() {
  const account = privateKeyToAccount(generatePrivateKey());
  const http = new x402HTTPClient(new x402Client()).onPaymentRequired(createSIWxClientHook(account));
  return { account, http };
}

async function headerFor(http: x402HTTPClient, challenge: PaymentRequired, url = URL_SUBS): Promise<string> {
  const headers = await http.handlePaymentRequired(challenge, url);
  return headers![SIGN_IN_WITH_X];
}

function withInfo(challenge: PaymentRequired, info: Partial<SIWxExtension["info"]>): PaymentRequired {
  const ext = challenge.extensions![SIGN_IN_WITH_X] as SIWxExtension;
  return { ...challenge, extensions: { [SIGN_IN_WITH_X]: { ...ext, info: { ...ext.info, ...info } } } };
}

describe("Sign-In-With-X for free wallet calls (CAIP-122)", () => {
  it("challenges with no payment option and the extension bound to this origin and network", () => {
    const challenge = siwxChallenge(env, resource);
    expect(challenge).toMatchObject({ x402Version: 2, resource, accepts: [] });
    const ext = challenge.extensions![SIGN_IN_WITH_X] as SIWxExtension;
    expect(ext.supportedChains).toEqual([{ chainId: "eip155:84532", type: "eip191" }]);
    expect(ext.info).toMatchObject({ domain: "api.test", uri: URL_SUBS, version: "1", resources: [URL_SUBS] });
    expect(ext.info.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(siwxChallenge(env, resource).extensions).not.toEqual(challenge.extensions);
  });

  it("turns a proof signed by the official client hook into the wallet address, once", async () => {
    const { account, http } = signer();
    const header = await headerFor(http, siwxChallenge(env, resource));
    expect(await walletFromSiwx(env, header)).toEqual({ ok: true, address: account.address, chainId: "eip155:84532" });
    expect(await walletFromSiwx(env, header)).toMatchObject({ ok: false, reason: "invalid_siwx_nonce" });
  });

  it("takes the payload as an object, as MCP carries it in _meta", async () => {
    const { account } = signer();
    const ext = siwxChallenge(env, resource, "https://api.test/mcp/v1").extensions![SIGN_IN_WITH_X] as SIWxExtension;
    const payload = await createSIWxPayload({ ...ext.info, chainId: "eip155:84532", type: "eip191" }, account, "https://api.test/mcp/v1");
    expect(await walletFromSiwx(env, JSON.parse(JSON.stringify(payload)))).toMatchObject({ ok: true, address: account.address });
  });

  it("refuses a signature by another wallet", async () => {
    const { http } = signer();
    const other = signer();
    const header = await headerFor(http, siwxChallenge(env, resource));
    const payload = JSON.parse(atob(header));
    const forged = { ...payload, address: other.account.address };
    expect(await walletFromSiwx(env, forged)).toMatchObject({ ok: false, reason: "invalid_siwx_signature" });
  });

  it("refuses a message for another domain", async () => {
    const { http } = signer();
    const elsewhere = siwxChallenge({ ...env, BASE_URL: "http://phish.test" }, { ...resource, url: "http://phish.test/v1/agent/subscriptions" });
    const header = await headerFor(http, elsewhere, "http://phish.test/v1/agent/subscriptions");
    expect(await walletFromSiwx(env, header)).toMatchObject({ ok: false, reason: "invalid_siwx_domain_mismatch" });
  });

  it("refuses an expired message", async () => {
    const { http } = signer();
    const expired = withInfo(siwxChallenge(env, resource), { expirationTime: new Date(Date.now() - 1000).toISOString() });
    expect(await walletFromSiwx(env, await headerFor(http, expired))).toMatchObject({ ok: false, reason: "invalid_siwx_expired" });
  });

  it("refuses a message issued too long ago", async () => {
    const { http } = signer();
    const stale = withInfo(siwxChallenge(env, resource), { issuedAt: new Date(Date.now() - 10 * 60_000).toISOString() });
    expect(await walletFromSiwx(env, await headerFor(http, stale))).toMatchObject({ ok: false, reason: "invalid_siwx_issued_at_too_old" });
  });

  it("refuses a proof for another network and a malformed header", async () => {
    const { http } = signer();
    const challenge = siwxChallenge(env, resource);
    const ext = challenge.extensions![SIGN_IN_WITH_X] as SIWxExtension;
    const mainnet = { ...challenge, extensions: { [SIGN_IN_WITH_X]: { ...ext, supportedChains: [{ chainId: "eip155:8453", type: "eip191" }] } } };
    expect(await walletFromSiwx(env, await headerFor(http, mainnet))).toMatchObject({ ok: false, reason: "invalid_siwx_chain_id" });
    expect(await walletFromSiwx(env, "%%%")).toMatchObject({ ok: false, reason: "invalid_siwx_payload" });
  });
});
