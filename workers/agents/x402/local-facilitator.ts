import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { getAddress, verifyTypedData } from "viem";
import { database, x402LocalNonces } from "../../db";
import { type Authorization, type AuthorizationKey, authorizationKey, eip3009, FACILITATOR_VALID_BEFORE_MARGIN_SECONDS, secondsLeft } from "./authorization";
import type { Facilitator } from "./facilitator";

/**
 * Facilitator error codes, as @x402/evm's exact facilitator names them (x402-specification-v2.md 9), so
 * that the local and a real facilitator refuse alike.
 */
export const FACILITATOR_REASONS = {
  invalidPayload: "invalid_payload",
  scheme: "invalid_exact_evm_scheme",
  network: "invalid_exact_evm_network_mismatch",
  signature: "invalid_exact_evm_signature",
  recipient: "invalid_exact_evm_recipient_mismatch",
  expired: "invalid_exact_evm_payload_authorization_valid_before",
  notYetValid: "invalid_exact_evm_payload_authorization_valid_after",
  value: "invalid_exact_evm_payload_authorization_value_mismatch",
  nonceUsed: "invalid_exact_evm_nonce_already_used",
} as const;

/**
 * The one-machine facilitator (X402_FACILITATOR_URL=local). It checks what the token contract would
 * check of an EIP-3009 transferWithAuthorization (the EIP-712 signature, value, recipient, validity
 * window and nonce) and keeps spent nonces in D1 in place of the contract's authorization state.
 * Its settlements move no money and are never claimed as on-chain: their reference is "local:<id>".
 * Only EOA signatures verify here (EIP-1271 smart wallets need a chain to ask).
 */
export class LocalFacilitator implements Facilitator {
  constructor(private readonly db: D1Database) {}

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    const checked = await checkAuthorization(payload, requirements);
    if (!checked.ok) return { isValid: false, invalidReason: checked.reason, payer: checked.payer };
    const { network, asset, payer, nonce } = checked.key;
    const spent = await database({ DB: this.db }).query.x402LocalNonces.findFirst({
      where: (n, { and, eq }) => and(eq(n.network, network), eq(n.asset, asset), eq(n.payer, payer), eq(n.nonce, nonce)),
      columns: { id: true },
    });
    if (spent) return { isValid: false, invalidReason: FACILITATOR_REASONS.nonceUsed, payer: checked.payer };
    return { isValid: true, payer: checked.payer };
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    // Settlement re-verifies: time has passed since verify (the window may have closed) and the payload
    // is whatever the caller hands in now (scheme_exact_evm.md, "re-verify-before-settle").
    const checked = await checkAuthorization(payload, requirements);
    if (!checked.ok) return { success: false, errorReason: checked.reason, payer: checked.payer, transaction: "", network: requirements.network };
    // The unique index on (network, asset, payer, nonce) lets exactly one of any number of concurrent
    // settlements of this authorization insert its row, as the contract would let exactly one transfer.
    const [row] = await database({ DB: this.db })
      .insert(x402LocalNonces)
      .values({ ...checked.key, amount: checked.value })
      .onConflictDoNothing()
      .returning({ id: x402LocalNonces.id });
    if (!row) return { success: false, errorReason: FACILITATOR_REASONS.nonceUsed, payer: checked.payer, transaction: "", network: requirements.network };
    return { success: true, payer: checked.payer, transaction: `local:${row.id}`, network: requirements.network, amount: checked.value };
  }
}

type Checked = { ok: true; payer: string; key: AuthorizationKey; value: string } | { ok: false; reason: string; payer?: string };

/** The checks of scheme_exact_evm.md "Verification Logic" that need no chain, in its order. */
async function checkAuthorization(payload: PaymentPayload, requirements: PaymentRequirements): Promise<Checked> {
  const parsed = eip3009(payload.payload);
  if (!parsed) return { ok: false, reason: FACILITATOR_REASONS.invalidPayload };
  const { signature, authorization } = parsed;
  const payer = address(authorization.from);
  if (payload.accepted.scheme !== "exact" || requirements.scheme !== "exact") return { ok: false, reason: FACILITATOR_REASONS.scheme, payer };
  const chainId = /^eip155:(\d+)$/.exec(requirements.network)?.[1];
  if (payload.accepted.network !== requirements.network || !chainId) return { ok: false, reason: FACILITATOR_REASONS.network, payer };
  const { name, version } = requirements.extra as { name?: unknown; version?: unknown };
  if (typeof name !== "string" || typeof version !== "string") return { ok: false, reason: FACILITATOR_REASONS.invalidPayload, payer };
  // EIP-3009 TransferWithAuthorization under the token's EIP-712 domain: the signature binds from, to,
  // value, the validity window and the nonce, and the domain binds the token contract and the chain.
  const valid = await verifyTypedData({
    address: payer,
    domain: { name, version, chainId: Number(chainId), verifyingContract: address(requirements.asset) },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: typedMessage(authorization),
    signature: signature as `0x${string}`,
  }).catch(() => false);
  if (!valid) return { ok: false, reason: FACILITATOR_REASONS.signature, payer };
  if (address(authorization.to) !== address(requirements.payTo)) return { ok: false, reason: FACILITATOR_REASONS.recipient, payer };
  if (secondsLeft(authorization) < BigInt(FACILITATOR_VALID_BEFORE_MARGIN_SECONDS)) return { ok: false, reason: FACILITATOR_REASONS.expired, payer };
  if (BigInt(authorization.validAfter) > BigInt(Math.floor(Date.now() / 1000))) return { ok: false, reason: FACILITATOR_REASONS.notYetValid, payer };
  // The exact scheme: the authorization moves exactly the price, not a unit more or less (scheme_exact_evm.md).
  if (BigInt(authorization.value) !== BigInt(requirements.amount)) return { ok: false, reason: FACILITATOR_REASONS.value, payer };
  return { ok: true, payer, key: authorizationKey(requirements.network, requirements.asset, authorization), value: authorization.value };
}

/**
 * The checksummed form of a 0x-and-40-hex address. EIP-55 case is only a checksum, so the lower-case
 * form is taken first: getAddress would throw on a wrongly cased input instead of refusing it.
 */
function address(hex: string): `0x${string}` {
  return getAddress(hex.toLowerCase());
}

function typedMessage(a: Authorization) {
  return {
    from: address(a.from),
    to: address(a.to),
    value: BigInt(a.value),
    validAfter: BigInt(a.validAfter),
    validBefore: BigInt(a.validBefore),
    nonce: a.nonce as `0x${string}`,
  };
}
