import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { listeners } from "./listeners";

/**
 * One settled x402 payment for one agent tool call (docs/agents/payments.md "Paying agents"): written in the same D1 batch
 * as its three ledger legs, which point back here through ledger_entries.x402_call_id.
 */
export const x402Calls = sqliteTable(
  "x402_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tool: text("tool").notNull(),
    /** The ResourceInfo.url the payment named (REST URL or mcp://tool/<name>). */
    resource: text("resource").notNull(),
    /** The paying wallet, lower-case hex. */
    payer: text("payer").notNull(),
    /** The agent credited with the recommender leg: the one named in the call, else the paying wallet (CAIP-10). */
    agentId: text("agent_id").notNull(),
    listenerId: integer("listener_id").references(() => listeners.id, { onDelete: "set null" }),
    network: text("network").notNull(),
    asset: text("asset").notNull(),
    amountMicros: integer("amount_micros").notNull(),
    /** The facilitator's settlement reference: a transaction hash, or "local:<id>" for the local facilitator. */
    settlement: text("settlement").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("x402_calls_settlement_idx").on(t.network, t.settlement), index("x402_calls_created_idx").on(t.createdAt)],
);

/**
 * The local facilitator's record of spent EIP-3009 authorizations. The token contract would refuse a
 * reused (authorizer, nonce) pair (EIP-3009 `authorizationState`); the unique index plays that part, so
 * of any number of concurrent settlements of one authorization exactly one inserts its row.
 */
export const x402LocalNonces = sqliteTable(
  "x402_local_nonces",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    network: text("network").notNull(),
    /** Token contract, lower-case hex. */
    asset: text("asset").notNull(),
    /** Authorizer (`authorization.from`), lower-case hex. */
    payer: text("payer").notNull(),
    nonce: text("nonce").notNull(),
    amount: text("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("x402_local_nonces_spent_idx").on(t.network, t.asset, t.payer, t.nonce)],
);

/**
 * EIP-3009 authorizations a paid call has taken (workers/agents/x402/reservations.ts). Verification alone
 * does not spend an authorization: until it settles, the same signed payment verifies again, so a call
 * takes its authorization here first, and the unique index lets exactly one of any number of concurrent
 * calls with one authorization do any work. Kept once the payment was settled or its settlement tried.
 */
export const x402Reservations = sqliteTable(
  "x402_reservations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    network: text("network").notNull(),
    /** Token contract, lower-case hex. */
    asset: text("asset").notNull(),
    /** Authorizer (`authorization.from`), lower-case hex. */
    payer: text("payer").notNull(),
    nonce: text("nonce").notNull(),
    /**
     * When the row may go (reservations.ts prunes it): the authorization's validBefore, at most a day on. Past
     * it the authorization verifies no more, or its call long ended settled (the token contract refuses a spent nonce).
     */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull().default(new Date(0)),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("x402_reservations_authorization_idx").on(t.network, t.asset, t.payer, t.nonce), index("x402_reservations_expires_idx").on(t.expiresAt)],
);

/**
 * Sign-In-With-X nonces already used: a signed sign-in message is accepted once (CAIP-122 nonce). Keyed by
 * wallet too, so that one wallet cannot burn a nonce another wallet was challenged with.
 */
export const siwxNonces = sqliteTable(
  "siwx_nonces",
  {
    /** The signing wallet, lower-case hex. */
    address: text("address").notNull(),
    nonce: text("nonce").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.address, t.nonce] })],
);

/**
 * The first answer of each paid call that carried an x402 `payment-identifier` (workers/agents/x402/payment-ids.ts):
 * a repeat by the same payer, for the same resource, with the same payment gets it back, uncharged, while a
 * retry can still come (issue 40 item 6). Written in the batch of its call's record and legs, so an answer is
 * remembered exactly when its payment was booked.
 */
export const x402PaymentIds = sqliteTable(
  "x402_payment_ids",
  {
    /** The paying wallet (`authorization.from`), lower-case hex: an identifier is the payer's own. */
    payer: text("payer").notNull(),
    /** The client's identifier (16 to 128 of A-Z, a-z, 0-9, - and _). */
    id: text("id").notNull(),
    /** The ResourceInfo.url the payment bought: a repeat at another resource is refused. */
    resource: text("resource").notNull(),
    /** SHA-256 (hex) of the canonical JSON of the PaymentPayload that carried it: a different payment is a conflict. */
    payloadSha256: text("payload_sha256").notNull(),
    x402CallId: integer("x402_call_id")
      .notNull()
      .references(() => x402Calls.id),
    /** The tool's answer, JSON sealed with AES-GCM under TOKEN_ENCRYPTION_KEY (it may hold a private feed URL). */
    result: text("result").notNull(),
    /** When a retry can no longer come: the authorization's validBefore, at most an hour after the call. Pruned then. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.payer, t.id] }), index("x402_payment_ids_expires_idx").on(t.expiresAt)],
);

/**
 * What a paid call that failed after its payment settled is owed (workers/agents/x402/credits.ts): x402 has no
 * refund, so the payer's next paid call for the same thing is answered from this row, once, and not settled.
 */
export const x402Credits = sqliteTable(
  "x402_credits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The settled payer of the failed call, lower-case hex: only a payment verified as theirs uses it. */
    payer: text("payer").notNull(),
    tool: text("tool").notNull(),
    /** The ResourceInfo.url the failed call bought: a REST operation's URL, or mcp://tool/<name>. */
    resource: text("resource").notNull(),
    /** The call's arguments as canonical JSON (RFC 8785): the article, voice or topics it named. */
    subject: text("subject").notNull(),
    /** What the failed call paid, USDC atomic units: a later call priced higher is not covered. */
    amountMicros: integer("amount_micros").notNull(),
    /** The failed call's settled record: its settlement is what the credited answer names. */
    x402CallId: integer("x402_call_id")
      .notNull()
      .references(() => x402Calls.id),
    /** For a call answered pending: its render job; the credit counts only once that job failed or was cancelled. */
    jobId: text("job_id"),
    /** A day after the failure (or the pending answer); pruned with the reservations past theirs. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("x402_credits_payer_idx").on(t.payer, t.resource), index("x402_credits_expires_idx").on(t.expiresAt)],
);
