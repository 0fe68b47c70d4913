import type { PaymentRequired, ResourceInfo } from "@x402/core/types";
import {
  declareSIWxExtension,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtensionInfo,
  type SIWxPayload,
  SIWxPayloadSchema,
  validateSIWxMessage,
  verifySIWxSignature,
} from "@x402/extensions/sign-in-with-x";
import { getAddress, isAddress } from "viem";
import { baseUrl, config } from "../../core/config";
import { database, siwxNonces } from "../../db";
import { paymentRequired } from "./requirements";

/**
 * Sign-In-With-X (x402 extension "sign-in-with-x", CAIP-122; EIP-4361 messages on EVM): how a wallet
 * agent proves its address on free calls (list_subscriptions), never with a payment (docs/agents/payments.md "Paying agents").
 * Over HTTP the signed payload travels base64 in the SIGN-IN-WITH-X header; over MCP as a JSON object in
 * `params._meta["sign-in-with-x"]`.
 */
export const SIWX_HEADER = SIGN_IN_WITH_X;
export const SIWX_META = SIGN_IN_WITH_X;

/** How long a challenge may be signed and used; validateSIWxMessage also refuses messages issued over 5 minutes ago. */
export const SIWX_LIFETIME_SECONDS = 300;

/**
 * The challenge for `resource`: a PaymentRequired with no payment option (`accepts: []`, the extension's
 * auth-only form) whose `extensions["sign-in-with-x"]` carries the message fields to sign. `uri` is the
 * HTTP address the proof will be sent to (for MCP, the /mcp/v1 endpoint); it must be under BASE_URL.
 */
export function siwxChallenge(env: object, resource: ResourceInfo, uri: string = resource.url): PaymentRequired {
  const declared = declareSIWxExtension({
    network: config(env).X402_NETWORK,
    statement: "Sign in with the wallet that holds your subscriptions.",
    expirationSeconds: SIWX_LIFETIME_SECONDS,
  })[SIGN_IN_WITH_X];
  const now = Date.now();
  // The fields @x402/extensions' server enrichment fills per response: domain and uri bound to this
  // origin (EIP-4361 "domain", "uri"), a fresh nonce, and the validity window.
  const info: SIWxExtensionInfo = {
    ...declared.info,
    domain: new URL(baseUrl(env)).host,
    uri,
    nonce: [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join(""),
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + SIWX_LIFETIME_SECONDS * 1000).toISOString(),
    resources: [uri],
  };
  const extension = { info, supportedChains: declared.supportedChains, schema: declared.schema };
  return paymentRequired(resource, [], "Sign in with your wallet (SIGN-IN-WITH-X) to use this resource", { [SIGN_IN_WITH_X]: extension });
}

export type SiwxResult = { ok: true; address: `0x${string}`; chainId: string } | { ok: false; reason: string; message: string };

/**
 * The wallet address a Sign-In-With-X proof establishes: the base64 header value or the payload object.
 * Refused with the extension's code: a malformed proof, another domain or origin (EIP-4361 section 4
 * "domain" binding), a message issued too long ago, expired or not yet valid, another network, a bad
 * signature, or a nonce already used (each signed message is accepted once).
 * EOA signatures only: a smart-contract wallet (EIP-1271) would need a chain to ask.
 */
export async function walletFromSiwx(env: Pick<Env, "DB">, proof: unknown): Promise<SiwxResult> {
  let payload: SIWxPayload;
  if (typeof proof === "string") {
    try {
      payload = parseSIWxHeader(proof.trim());
    } catch {
      return refuse("invalid_siwx_payload", "the SIGN-IN-WITH-X header is not a base64 SIWX payload");
    }
  } else {
    const parsed = SIWxPayloadSchema.safeParse(proof);
    if (!parsed.success) return refuse("invalid_siwx_payload", "not a SIWX payload");
    payload = parsed.data;
  }
  const network = config(env).X402_NETWORK;
  if (payload.chainId !== network) return refuse("invalid_siwx_chain_id", `sign in on ${network}`);
  if (!isAddress(payload.address)) return refuse("invalid_siwx_payload", "the address is not an EVM address");

  const validation = await validateSIWxMessage(payload, new URL(baseUrl(env)));
  if (!validation.isValid) return refuse(validation.invalidReason, validation.invalidMessage);
  const verification = await verifySIWxSignature(payload);
  if (!verification.isValid) return refuse(verification.invalidReason, verification.invalidMessage);

  // Single use, atomically: of concurrent uses of one signed message exactly one inserts its nonce.
  const address = getAddress(payload.address);
  const [fresh] = await database(env)
    .insert(siwxNonces)
    .values({ address: address.toLowerCase(), nonce: payload.nonce })
    .onConflictDoNothing()
    .returning({ nonce: siwxNonces.nonce });
  if (!fresh) return refuse("invalid_siwx_nonce", "this sign-in message was already used");
  return { ok: true, address, chainId: payload.chainId };
}

function refuse(reason: string, message: string): SiwxResult {
  return { ok: false, reason, message };
}
