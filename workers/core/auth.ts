import { database } from "../db";
import { feedUnavailable } from "../kernel/feed-paths";
import { listenerByFeedToken, requireListener, type Listener } from "../kernel/listener-tokens";
import { findPublisherKey, webhookSecretOf } from "../kernel/publisher-keys";
import { signedInListener, type SignedIn } from "./web-session";
import { signedInMember, type StudioSignedIn } from "./studio-session";
import { config } from "./config";
import { hmacSha256Hex, secretsEqual } from "./crypto";
import { ApiError, ValidationError } from "./errors";
import type { OAuthGrant } from "./grant";
import type { AuthKind } from "./route";
import { decodeBody, readBodyBytes } from "./validate";

/** True when any of `given` equals `expected`; every candidate is compared, in constant time. */
async function anyMatches(given: (string | null)[], expected: string[]): Promise<boolean> {
  const secrets = expected.filter((e) => e !== "");
  const candidates = given.filter((g): g is string => g !== null && g !== "");
  const results = await Promise.all(candidates.flatMap((g) => secrets.map((s) => secretsEqual(g, s))));
  return results.includes(true);
}

/**
 * The service API key where docs/rules.md "Rules" 5 puts it: query api_key, header x-service-key or
 * x-legacy-key. api_key given twice is a 422: which of two keys counts must not depend on who reads
 * the query (this Worker reads the first, a proxy or a log may read the last).
 */
function serviceKeysGiven(request: Request, url: URL): (string | null)[] {
  const inQuery = url.searchParams.getAll("api_key");
  if (inQuery.length > 1) throw new ValidationError([{ loc: ["query", "api_key"], msg: "given more than once", type: "duplicate" }]);
  return [inQuery[0] ?? null, request.headers.get("x-service-key"), request.headers.get("x-legacy-key")];
}

/** True when the request carries the operator's SERVICE_API_KEY. */
export async function hasApiKey(env: object, request: Request, url: URL): Promise<boolean> {
  return anyMatches(serviceKeysGiven(request, url), [config(env).SERVICE_API_KEY]);
}

/**
 * Who holds the API key or signed the webhook: the operator (SERVICE_API_KEY, PUBLISH_WEBHOOK_SECRET)
 * or one publisher, by its own key or signing secret (docs/security.md "Publisher keys").
 */
export type ApiCaller = { kind: "operator" } | { kind: "publisher"; publisher: string };

const OPERATOR: ApiCaller = { kind: "operator" };

/** True when `caller` may act on an article of `publisher`: the operator on any, a publisher on its own. */
export function mayActFor(caller: ApiCaller, publisher: string): boolean {
  return caller.kind === "operator" || caller.publisher === publisher;
}

/** RFC 6750 §2.1: the token of `Authorization: Bearer <token>` (the scheme case-insensitive), or null. */
export function bearerToken(header: string | null): string | null {
  return header === null ? null : (/^Bearer[ \t]+([^\s,]+)[ \t]*$/i.exec(header)?.[1] ?? null);
}

/**
 * The operator by SERVICE_API_KEY (also accepted as a Bearer token), else a publisher by
 * `Authorization: Bearer npk_...`; null without a valid key (for paths that serve more to a key holder).
 */
export async function apiCallerOf(env: Env, request: Request, url: URL): Promise<ApiCaller | null> {
  const bearer = bearerToken(request.headers.get("Authorization"));
  if (await anyMatches([...serviceKeysGiven(request, url), bearer], [config(env).SERVICE_API_KEY])) return OPERATOR;
  const key = bearer ? await findPublisherKey(env, bearer) : null;
  return key ? { kind: "publisher", publisher: key.publisher } : null;
}

async function requireApiKey(env: Env, request: Request, url: URL): Promise<ApiCaller> {
  const caller = await apiCallerOf(env, request, url);
  if (!caller) throw new ApiError("unauthorized", "a valid API key is required");
  return caller;
}

/** True when x-service-email-token holds the admin token or the legacy intake token. */
function isAdmin(env: object, request: Request): Promise<boolean> {
  const { ADMIN_TOKEN, LEGACY_INTAKE_TOKEN } = config(env);
  return anyMatches([request.headers.get("x-service-email-token")], [ADMIN_TOKEN, LEGACY_INTAKE_TOKEN]);
}

async function requireAdmin(env: object, request: Request): Promise<void> {
  if (!(await isAdmin(env, request))) throw new ApiError("unauthorized", "a valid admin token is required");
}

/**
 * The admin token, which acts as the operator, or else an API key as `api_key` takes it. Either
 * proves the caller; without one that is valid it is a 401.
 */
async function requireApiKeyOrAdmin(env: Env, request: Request, url: URL): Promise<ApiCaller> {
  if (await isAdmin(env, request)) return OPERATOR;
  const caller = await apiCallerOf(env, request, url);
  if (!caller) throw new ApiError("unauthorized", "a valid API key or admin token is required");
  return caller;
}

/** The `publisher` member of a JSON body as sent, or "": it only picks which publisher's secret to try. */
function claimedPublisher(bytes: Uint8Array): string {
  try {
    const publisher: unknown = JSON.parse(decodeBody(bytes))?.publisher;
    return typeof publisher === "string" ? publisher : "";
  } catch {
    return "";
  }
}

/**
 * The publish webhook signature (x-legacy-signature) over the exact bytes sent, by the global secret
 * (the operator's legacy integration) or by the publisher's own secret. The body's publisher merely
 * picks the secret to try: nothing else about the body counts until a signature verifies.
 */
async function requireSignedBody(env: Env, request: Request): Promise<{ signedBody: string; caller: ApiCaller }> {
  const bytes = await readBodyBytes(request);
  const signature = request.headers.get("x-legacy-signature");
  // Decoded once a signature verifies: bytes that are not UTF-8 are then the body's 422, not a 401.
  const signedBody = () => decodeBody(bytes);
  if (await verifyWebhook(config(env).PUBLISH_WEBHOOK_SECRET, signature, bytes)) return { signedBody: signedBody(), caller: OPERATOR };
  const publisher = signature ? claimedPublisher(bytes) : "";
  const own = publisher ? await webhookSecretOf(env, publisher) : null;
  if (own !== null && (await verifyWebhook(own, signature, bytes))) return { signedBody: signedBody(), caller: { kind: "publisher", publisher } };
  throw new ApiError("unauthorized", "missing, malformed, wrong or stale x-legacy-signature");
}

/**
 * The listener holding private feed token `token`; 404 when unknown, rotated away or deleted. A
 * failed lookup is the feed's 503 with Retry-After, as for any feed that cannot be built.
 */
async function requireFeedListener(env: Env, token: string): Promise<Listener> {
  const listener = await listenerByFeedToken(database(env), token).catch(() => {
    throw feedUnavailable();
  });
  if (!listener) throw new ApiError("not_found", "no feed at this address");
  return listener;
}

/**
 * What a resolved credential proved: the listener of a path token, the API caller, the signed body of
 * a webhook and its signer, the OAuth grant of a bearer token (null: an agent that sent none), or
 * the signed-in listener of a web session (null: a signed-out visitor of a `browser` page).
 */
export interface Credential {
  listener?: Listener;
  caller?: ApiCaller;
  signedBody?: string;
  grant?: OAuthGrant | null;
  signedIn?: SignedIn | null;
  member?: StudioSignedIn;
}

/** The credentials resolveCredential resolves; the OAuth ones (bearer, agent) are the router's BearerResolver (core/grant.ts). */
export type ResolvedHere = Exclude<AuthKind, "bearer" | "agent">;

/**
 * The web session a page asks for. `session` pages refuse a browser without a live one with a 401,
 * which a page's error renderer turns into the way to sign in (workers/web/page-errors.ts).
 */
async function resolveSession(auth: "session" | "browser", env: Env, request: Request): Promise<Credential> {
  const signedIn = await signedInListener(request, env);
  if (!signedIn && auth === "session") throw new ApiError("unauthorized", "sign in to see this page");
  return { signedIn };
}

/** The studio member of the session cookie; without one, a 401 that the studio's pages turn into their sign-in. */
async function resolveMember(env: Env, request: Request): Promise<Credential> {
  const member = await signedInMember(request, env);
  if (!member) throw new ApiError("unauthorized", "sign in to the studio to see this page");
  return { member };
}

/**
 * `api_key_or_member`: the admin token or an API key as `api_key_or_admin` takes them when one is
 * sent, else a studio member's session; a 401 without either.
 */
async function requireApiKeyOrMember(env: Env, request: Request, url: URL): Promise<Credential> {
  if (await isAdmin(env, request)) return { caller: OPERATOR };
  const caller = await apiCallerOf(env, request, url);
  if (caller) return { caller };
  const member = await signedInMember(request, env);
  if (!member) throw new ApiError("unauthorized", "a valid API key, admin token or studio session is required");
  return { member };
}

/**
 * Resolves the credential `auth` names, once, for the route table: 401 for a missing or wrong API key,
 * admin token, signature or web session; 404 for an unknown listener token (a path token is the credential, and a
 * 404 says no more than that it opens nothing). `params` are the validated path parameters.
 */
export async function resolveCredential(auth: ResolvedHere, env: Env, request: Request, url: URL, params: { token?: string } | undefined): Promise<Credential> {
  switch (auth) {
    case "none":
      return {};
    case "api_key":
      return { caller: await requireApiKey(env, request, url) };
    case "admin":
      return requireAdmin(env, request).then(() => ({}));
    case "api_key_or_admin":
      return { caller: await requireApiKeyOrAdmin(env, request, url) };
    case "listener_token":
      return { listener: await requireListener(database(env), params?.token ?? "") };
    case "feed_token":
      return { listener: await requireFeedListener(env, params?.token ?? "") };
    case "webhook_signature":
      // Verified before parsing: nothing about an unsigned body is trusted, not even its shape.
      return requireSignedBody(env, request);
    case "session":
    case "browser":
      return resolveSession(auth, env, request);
    case "studio":
      return resolveMember(env, request);
    case "api_key_or_member":
      return requireApiKeyOrMember(env, request, url);
  }
}

/**
 * The publish webhook signature (docs/narration-api.md "Publish webhook"):
 * `x-legacy-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Signing the timestamp with the body stops replays of an old delivery beyond the tolerance.
 */

/** How far the signed timestamp may be from now, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const HEADER = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

/** The signed message: "<t>." followed by the body bytes exactly as received. */
function signedBytes(t: string, rawBody: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`${t}.`);
  const out = new Uint8Array(prefix.length + rawBody.length);
  out.set(prefix);
  out.set(rawBody, prefix.length);
  return out;
}

/** The header value for `rawBody` signed at `nowMs`. */
export async function signWebhook(secret: string, rawBody: Uint8Array, nowMs = Date.now()): Promise<string> {
  const t = String(Math.floor(nowMs / 1000));
  return `t=${t},v1=${await hmacSha256Hex(secret, signedBytes(t, rawBody))}`;
}

/**
 * What a header `verifyWebhook` accepted says of its delivery: the signed time, and the MAC, which
 * names the delivery (one body at one second); null for a malformed header.
 */
export function signedDelivery(header: string | null): { signedAt: Date; mac: string } | null {
  const match = HEADER.exec(header?.trim() ?? "");
  return match ? { signedAt: new Date(Number(match[1]) * 1000), mac: match[2] } : null;
}

/**
 * True only for a well-formed header whose HMAC over the exact raw body matches (compared in
 * constant time) and whose timestamp is within the tolerance. An unset secret verifies nothing.
 */
export async function verifyWebhook(secret: string, header: string | null, rawBody: Uint8Array, nowMs = Date.now()): Promise<boolean> {
  if (!secret || !header) return false;
  const match = HEADER.exec(header.trim());
  if (!match) return false;
  const t = Number(match[1]);
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  return secretsEqual(match[2], await hmacSha256Hex(secret, signedBytes(match[1], rawBody)));
}
