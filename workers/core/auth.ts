import { database } from "../db";
import { feedUnavailable } from "../kernel/feed-paths";
import { listenerByFeedToken, requireListener, type Listener } from "../kernel/listener-tokens";
import { config } from "./config";
import { secretsEqual } from "./crypto";
import { ApiError } from "./errors";
import type { AuthKind } from "./route";
import { readBodyBytes } from "./validate";
import { verifyWebhook } from "./webhook-signature";

/** True when any of `given` equals `expected`; every candidate is compared, in constant time. */
async function anyMatches(given: (string | null)[], expected: string[]): Promise<boolean> {
  const secrets = expected.filter((e) => e !== "");
  const candidates = given.filter((g): g is string => g !== null && g !== "");
  const results = await Promise.all(candidates.flatMap((g) => secrets.map((s) => secretsEqual(g, s))));
  return results.includes(true);
}

/** The API key of render, jobs and plays: query api_key, header x-service-key or x-legacy-key (README "Rules" 5). */
export async function hasApiKey(env: object, request: Request, url: URL): Promise<boolean> {
  const given = [url.searchParams.get("api_key"), request.headers.get("x-service-key"), request.headers.get("x-legacy-key")];
  return anyMatches(given, [config(env).SERVICE_API_KEY]);
}

async function requireApiKey(env: object, request: Request, url: URL): Promise<void> {
  if (!(await hasApiKey(env, request, url))) throw new ApiError("unauthorized", "a valid API key is required");
}

/** x-service-email-token must hold the admin token or the legacy intake token. */
async function requireAdmin(env: object, request: Request): Promise<void> {
  const { ADMIN_TOKEN, LEGACY_INTAKE_TOKEN } = config(env);
  const ok = await anyMatches([request.headers.get("x-service-email-token")], [ADMIN_TOKEN, LEGACY_INTAKE_TOKEN]);
  if (!ok) throw new ApiError("unauthorized", "a valid admin token is required");
}

/** The publish webhook signature (x-legacy-signature) over the exact bytes sent; answers those bytes as text. */
async function requireSignedBody(env: object, request: Request): Promise<string> {
  const bytes = await readBodyBytes(request);
  const ok = await verifyWebhook(config(env).PUBLISH_WEBHOOK_SECRET, request.headers.get("x-legacy-signature"), bytes);
  if (!ok) throw new ApiError("unauthorized", "missing, malformed, wrong or stale x-legacy-signature");
  return new TextDecoder().decode(bytes);
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

/** What a resolved credential proved: the listener of a path token, or the signed body of a webhook. */
export interface Credential {
  listener?: Listener;
  signedBody?: string;
}

/**
 * Resolves the credential `auth` names, once, for the route table: 401 for a missing or wrong API key,
 * admin token or signature; 404 for an unknown listener token (a path token is the credential, and a
 * 404 says no more than that it opens nothing). `params` are the validated path parameters.
 */
export async function resolveCredential(
  auth: AuthKind,
  env: Env,
  request: Request,
  url: URL,
  params: { token?: string } | undefined,
): Promise<Credential> {
  switch (auth) {
    case "none":
      return {};
    case "api_key":
      return requireApiKey(env, request, url).then(() => ({}));
    case "admin":
      return requireAdmin(env, request).then(() => ({}));
    case "listener_token":
      return { listener: await requireListener(database(env), params?.token ?? "") };
    case "feed_token":
      return { listener: await requireFeedListener(env, params?.token ?? "") };
    case "webhook_signature":
      // Verified before parsing: nothing about an unsigned body is trusted, not even its shape.
      return { signedBody: await requireSignedBody(env, request) };
  }
}
