import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import * as v from "valibot";
import { type Fetched, FetchRefused, guardedFetch, inDevelopment, isLoopback } from "../kernel/guarded-fetch";

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25, "Client ID Metadata Documents";
 * draft-ietf-oauth-client-id-metadata-document): a client whose client_id is the HTTPS URL of a JSON document
 * describing it is accepted without registration. The document is fetched by the one guarded fetcher
 * (kernel/guarded-fetch.ts), bounded in size and time, never from this machine or a private network
 * (outside development) and never through a redirect,
 * validated (client_id equals its URL, redirect_uris, client_name), and stored as the provider's client
 * record under that client_id, so the provider's own checks (exact redirect URIs, PKCE, single-use codes)
 * apply to it as to a registered client. Registration (RFC 7591) cannot choose a client_id, so no
 * registered client can take a document's URL.
 *
 * Why not the provider's own CIMD support (`clientIdMetadataDocumentEnabled`, @cloudflare/workers-oauth-provider
 * 1.2.3): it fetches with the global fetch and leaves private addresses to the `global_fetch_strictly_public`
 * compatibility flag, which would change every outbound request of this Worker and does nothing under
 * workerd on one machine, so the refusal could not be tested here; and it takes https only, so a client
 * served on this machine could not be used in development.
 */

/** The most a document may weigh (the provider's own bound for documents) and the longest its fetch may take. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
export const FETCH_TIMEOUT_MS = 5_000;

/** How long a fetched document is trusted before the next authorization request fetches it again (its max-age, within these bounds). */
const MIN_FRESH_SECONDS = 60;
const DEFAULT_FRESH_SECONDS = 300;
const MAX_FRESH_SECONDS = 24 * 60 * 60;

/**
 * Whether `clientId` names a metadata document: an https URL with a path (the draft's §3), or in
 * development an http URL on this machine, so a client run here can be used as it will be published.
 */
export function isMetadataDocumentUrl(env: object, clientId: string): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const local = url.protocol === "http:" && isLoopback(url.hostname) && inDevelopment(env);
  return (url.protocol === "https:" || local) && url.pathname !== "/" && !url.username && !url.password && !url.hash;
}

const RedirectUri = v.pipe(
  v.string(),
  v.url(),
  v.check((uri) => {
    const url = new URL(uri);
    return !url.hash && (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname)));
  }, "each redirect URI must be https, or http on a loopback host (RFC 8252 §7.3), without a fragment"),
);

/** What this server reads of a document (RFC 7591 §2 names; others are ignored). */
const Document = v.object({
  client_id: v.string(),
  client_name: v.pipe(v.string(), v.trim(), v.minLength(1, "client_name is required"), v.maxLength(100, "client_name is too long")),
  redirect_uris: v.pipe(v.array(RedirectUri), v.minLength(1, "redirect_uris is required"), v.maxLength(10, "at most 10 redirect_uris")),
  client_uri: v.optional(v.pipe(v.string(), v.url())),
  logo_uri: v.optional(v.pipe(v.string(), v.url())),
  token_endpoint_auth_method: v.optional(v.literal("none", 'token_endpoint_auth_method must be "none": this server takes public clients with PKCE')),
});

/** Why a document could not be used; shown on the authorization page, never redirected with. */
export class ClientMetadataError extends Error {}

/** The document at `url`, read within the size and time limits; redirects refused. */
async function fetchDocument(env: object, url: URL): Promise<{ json: unknown; maxAge: number }> {
  let fetched: Fetched;
  try {
    // A redirect could lead anywhere, a private address included: the document must be at its own URL.
    fetched = await guardedFetch(env, url, {
      accept: "application/json",
      maxBytes: MAX_DOCUMENT_BYTES,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxRedirects: 0,
      noun: "the document",
    });
  } catch (err) {
    throw err instanceof FetchRefused ? new ClientMetadataError(err.message) : err;
  }
  try {
    return { json: JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fetched.bytes)), maxAge: maxAgeOf(fetched.headers) };
  } catch {
    throw new ClientMetadataError("the document is not JSON");
  }
}

/** How long the document may be reused: its Cache-Control max-age within bounds (the draft lets servers bound it). */
function maxAgeOf(headers: Headers): number {
  const cacheControl = headers.get("Cache-Control") ?? "";
  if (/no-store|no-cache/i.test(cacheControl)) return MIN_FRESH_SECONDS;
  const maxAge = /max-age=(\d+)/i.exec(cacheControl);
  const seconds = maxAge ? Number(maxAge[1]) : DEFAULT_FRESH_SECONDS;
  return Math.min(MAX_FRESH_SECONDS, Math.max(MIN_FRESH_SECONDS, seconds));
}

/** The provider's KV key of a client record, ours marking a document fresh, and ours marking a client a listener allowed. */
const clientKey = (clientId: string) => `client:${clientId}`;
const freshKey = (clientId: string) => `cimd-fresh:${clientId}`;
const allowedKey = (clientId: string) => `cimd-allowed:${clientId}`;

/**
 * How long the record of a client nobody has allowed yet is kept: anyone, signed in or not, can make the
 * server fetch a document by opening an authorization page, so such records lapse (issue 40 item 13).
 * A day covers a listener who signs in and decides later; the page fetches the document again after it.
 */
const UNALLOWED_RECORD_SECONDS = 86_400;

/**
 * Makes the client named by the metadata document at `clientId` known to the provider, fetching and
 * validating the document unless a fresh copy was stored; a ClientMetadataError says why it cannot be
 * used. Other client ids are left to the provider (registered clients).
 */
export async function resolveClientMetadataDocument(env: Pick<Env, "OAUTH_KV"> & object, clientId: string): Promise<void> {
  if (!isMetadataDocumentUrl(env, clientId)) return;
  if (await env.OAUTH_KV.get(freshKey(clientId))) return;
  const { json, maxAge } = await fetchDocument(env, new URL(clientId));
  const parsed = v.safeParse(Document, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    throw new ClientMetadataError(`the document is not a client metadata document: ${path ? `${path}: ` : ""}${issue.message}`);
  }
  const document = parsed.output;
  if (document.client_id !== clientId) throw new ClientMetadataError("the document's client_id is not its own URL");
  // The record the provider keeps for a public client it registered (RFC 7591 names, its fields).
  const record = {
    clientId,
    redirectUris: document.redirect_uris,
    clientName: document.client_name,
    clientUri: document.client_uri,
    logoUri: document.logo_uri,
    grantTypes: ["authorization_code", "refresh_token"],
    responseTypes: ["code"],
    registrationDate: Math.floor(Date.now() / 1000),
    tokenEndpointAuthMethod: "none",
    authMethodExplicit: true,
  };
  // Kept without expiry once a listener allowed the client (keepAllowedClient): its tokens are refreshed
  // against it. Until then it lapses. Each new authorization request past the freshness window fetches the
  // document again and replaces it.
  const allowed = (await env.OAUTH_KV.get(allowedKey(clientId))) !== null;
  await env.OAUTH_KV.put(clientKey(clientId), JSON.stringify(record), allowed ? undefined : { expirationTtl: UNALLOWED_RECORD_SECONDS });
  await env.OAUTH_KV.put(freshKey(clientId), "1", { expirationTtl: maxAge });
}

/**
 * Keeps the record of a metadata-document client for good once a listener allowed it: the tokens it was
 * granted are refreshed against the record. Registered clients are the provider's and left alone.
 */
export async function keepAllowedClient(env: Pick<Env, "OAUTH_KV"> & object, clientId: string): Promise<void> {
  if (!isMetadataDocumentUrl(env, clientId)) return;
  const record = await env.OAUTH_KV.get(clientKey(clientId));
  if (record === null) return;
  await env.OAUTH_KV.put(allowedKey(clientId), "1");
  await env.OAUTH_KV.put(clientKey(clientId), record);
}

/** The host of a metadata document client_id, for the consent page; null for a registered client. */
export function metadataDocumentHost(env: object, clientId: string): string | null {
  return isMetadataDocumentUrl(env, clientId) ? new URL(clientId).host : null;
}

/**
 * The provider, its RFC 8414 metadata saying `client_id_metadata_document_supported: true` for the documents
 * this module resolves (RFC 8414 §2 lets a server add members; MCP clients read this one before using a URL
 * as their client_id). The provider would say false, its own CIMD support being off.
 */
export class AuthorizationServerWithDocuments<E> extends OAuthAuthorizationServer<E> {
  override async fetch(request: Request, env: E, ctx: ExecutionContext): Promise<Response> {
    const response = await super.fetch(request, env, ctx);
    if (!response.ok || !new URL(request.url).pathname.startsWith("/.well-known/oauth-authorization-server")) return response;
    const metadata = await response.json<Record<string, unknown>>();
    const headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return Response.json({ ...metadata, client_id_metadata_document_supported: true }, { headers });
  }
}
