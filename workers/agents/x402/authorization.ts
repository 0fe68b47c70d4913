import * as v from "valibot";

const hex = (digits: number, what: string) => v.pipe(v.string(), v.regex(new RegExp(`^0x[0-9a-fA-F]{${digits}}$`), what));
const uint256 = v.pipe(v.string(), v.regex(/^\d{1,78}$/, "an unsigned integer in decimal"));

/**
 * The `exact` EVM payload for EIP-3009 assets (scheme_exact_evm.md, "EIP-3009"): an authorization and its
 * signature. It is the only payment method this service offers (its requirements name no
 * `assetTransferMethod`), so a payload of any other shape (Permit2) is refused before verification.
 */
const Eip3009Payload = v.object({
  signature: v.pipe(v.string(), v.regex(/^0x(?:[0-9a-fA-F]{2})+$/, "a hex signature")),
  authorization: v.object({
    from: hex(40, "an address"),
    to: hex(40, "an address"),
    value: uint256,
    validAfter: uint256,
    validBefore: uint256,
    nonce: hex(64, "a 32-byte nonce"),
  }),
});

export type Eip3009 = v.InferOutput<typeof Eip3009Payload>;
export type Authorization = Eip3009["authorization"];

/** The EIP-3009 signature and authorization of a PaymentPayload's `payload`; undefined for any other shape. */
export function eip3009(payload: unknown): Eip3009 | undefined {
  const parsed = v.safeParse(Eip3009Payload, payload);
  return parsed.success ? parsed.output : undefined;
}

/**
 * A facilitator refuses an authorization this close to its validBefore, leaving room for the transfer to be
 * mined before the token contract voids it (EIP-3009: valid only while block.timestamp < validBefore).
 * @x402/evm's exact facilitator uses 6 s at verify and again at settle; the local facilitator does the same.
 */
export const FACILITATOR_VALID_BEFORE_MARGIN_SECONDS = 6;

/** Seconds from now until the authorization's validBefore (negative once it has passed). */
export function secondsLeft(authorization: Authorization, nowMs = Date.now()): bigint {
  return BigInt(authorization.validBefore) - BigInt(Math.floor(nowMs / 1000));
}

/**
 * What identifies one authorization: EIP-3009 keeps its nonces per authorizer in the token contract
 * (`authorizationState(authorizer, nonce)`), and the network and asset name that contract. Lower case.
 */
export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

/** The key of `authorization` for a payment in `asset` on `network`. */
export function authorizationKey(network: string, asset: string, authorization: Authorization): AuthorizationKey {
  return { network, asset: asset.toLowerCase(), payer: authorization.from.toLowerCase(), nonce: authorization.nonce.toLowerCase() };
}
