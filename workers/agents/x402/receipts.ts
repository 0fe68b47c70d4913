import type { PaymentRequirements } from "@x402/core/types";
import { createJWS, createOfferJWS, type JWSSigner, type SignedOffer } from "@x402/extensions/offer-receipt";
import { baseUrl, config } from "../../core/config";
import { ApiError } from "../../core/errors";
import { derivedSecret } from "../../core/platform-secret";

/**
 * Signed offers and receipts (x402 extension "offer-receipt", specs/extensions/extension-offer-and-receipt.md
 * of coinbase/x402): every PaymentRequired carries an offer per requirement, every settled call a receipt,
 * both JWS (EdDSA, Ed25519) under the platform's key. The key is derived from TOKEN_ENCRYPTION_KEY with
 * HKDF (RFC 5869) for this one purpose, so there is no second secret to provision and no key serves two
 * algorithms; its public half is published as a did:web DID document at {BASE_URL}/.well-known/did.json
 * (the spec's §3.3 JWS `kid` is a DID URL, and did:web is one its verifiers resolve).
 */

/** The receipt payload's version (§5.1). */
const VERSION = 1;

/** The HKDF `info`: a key for this purpose only. */
const PURPOSE = "narration x402 offer-receipt signing key v1";

/** PKCS #8 for an Ed25519 private key is this fixed prefix and the 32-byte seed (RFC 8410 §7). */
const ED25519_PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: { kty: string; crv: string; x: string; alg: "EdDSA"; use: "sig" };
}

const keys = new Map<string, Promise<SigningKey>>();

async function deriveKey(env: object): Promise<SigningKey> {
  const seed = derivedSecret(env, PURPOSE, 32, "the platform signs no offers or receipts");
  const pkcs8 = new Uint8Array([...ED25519_PKCS8_PREFIX, ...seed]);
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"]);
  const { kty, crv, x } = (await crypto.subtle.exportKey("jwk", privateKey)) as JsonWebKey;
  // The exportable copy served only to read the public half; signing uses one that cannot be exported.
  const signing = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, false, ["sign"]);
  // `alg` names the one algorithm the key verifies (RFC 7517 §4.4), as JWS libraries ask of an imported JWK.
  return { privateKey: signing, publicJwk: { kty: kty!, crv: crv!, x: x!, alg: "EdDSA", use: "sig" } };
}

/** The platform's signing key; paid tools are off without TOKEN_ENCRYPTION_KEY (requirements.ts x402Settings). */
function signingKey(env: object): Promise<SigningKey> {
  const secret = config(env).TOKEN_ENCRYPTION_KEY;
  if (!secret) throw new ApiError("unavailable", "the platform signs no offers or receipts: TOKEN_ENCRYPTION_KEY is not configured");
  let key = keys.get(secret);
  if (!key) {
    key = deriveKey(env);
    keys.set(secret, key);
  }
  return key;
}

/** The did:web DID of BASE_URL's origin: its host, a port percent-encoded (did:web method, "Create"). */
export function platformDid(env: object): string {
  return `did:web:${new URL(baseUrl(env)).host.replace(":", "%3A")}`;
}

/** The JWS `kid`: the verification method of the platform's DID that signs offers and receipts. */
export function receiptKid(env: object): string {
  return `${platformDid(env)}#x402-receipts`;
}

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

function signer(env: object): JWSSigner {
  return {
    kid: receiptKid(env),
    format: "jws",
    algorithm: "EdDSA",
    sign: async (payload) => base64url(await crypto.subtle.sign("Ed25519", (await signingKey(env)).privateKey, payload)),
  };
}

/**
 * The DID document published at {BASE_URL}/.well-known/did.json: the key that verifies every offer and
 * receipt, as a JsonWebKey2020 verification method (its `publicKeyJwk` is what verifyReceiptSignatureJWS takes).
 */
export async function didDocument(env: object): Promise<Record<string, unknown>> {
  const id = platformDid(env);
  const { publicJwk } = await signingKey(env);
  const method = { id: receiptKid(env), type: "JsonWebKey2020", controller: id, publicKeyJwk: publicJwk };
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
    id,
    verificationMethod: [method],
    assertionMethod: [method.id],
  };
}

/** One signed offer per requirement, in `accepts` order (§4.1: `extensions["offer-receipt"].info.offers`). */
export async function signedOffers(env: object, resourceUrl: string, accepts: PaymentRequirements[]): Promise<{ info: { offers: SignedOffer[] } }> {
  const jws = signer(env);
  const offers = await Promise.all(
    accepts.map((r, acceptIndex) =>
      createOfferJWS(
        resourceUrl,
        { acceptIndex, scheme: r.scheme, network: r.network, asset: r.asset, payTo: r.payTo, amount: r.amount, offerValiditySeconds: r.maxTimeoutSeconds },
        jws,
      ),
    ),
  );
  return { info: { offers } };
}

/** What a receipt states: a settled call, named by its ledger row (x402_calls.id). */
export interface ReceiptFacts {
  callId: number;
  resourceUrl: string;
  payer: string;
  network: string;
  /** When the call was settled (its ledger row's time), so a repeat of the call gets the same statement. */
  issuedAt: number;
}

/**
 * The signed receipt of a settled call (§5.1: `extensions["offer-receipt"].info.receipt`). The payload is the
 * spec's privacy-minimal one (§5.2: no transaction) plus `id`, the call's ledger row, so a receipt names the
 * booking it proves.
 */
export async function signedReceipt(env: object, facts: ReceiptFacts): Promise<{ info: { receipt: { format: "jws"; signature: string } } }> {
  const payload = { version: VERSION, id: facts.callId, network: facts.network, resourceUrl: facts.resourceUrl, payer: facts.payer, issuedAt: facts.issuedAt };
  return { info: { receipt: { format: "jws", signature: await createJWS(payload, signer(env)) } } };
}
