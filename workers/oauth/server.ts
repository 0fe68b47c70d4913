import type { OAuthAuthorizationServer, OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { baseUrl, webUrl } from "../core/config";
import { ApiError } from "../core/errors";
import type { OAuthDoc } from "../core/openapi";
import { MAX_FORM_BYTES, readBodyBytes } from "../core/validate";
import { AuthorizationServerWithDocuments } from "./client-metadata";
import { SCOPE_NAMES, SCOPES } from "./scopes";

/**
 * The OAuth 2.1 authorization server (@cloudflare/workers-oauth-provider, role-based API). Its
 * issuer is WEB_URL, so RFC 8414 metadata lives at {WEB_URL}/.well-known/oauth-authorization-server;
 * its one protected resource is the API at BASE_URL, so every access token's audience is BASE_URL
 * (RFC 8707) and RFC 9728 metadata lives at {BASE_URL}/.well-known/oauth-protected-resource.
 * The provider runs PKCE with S256 only (it refuses plain outright since 1.2.3), single-use codes,
 * rotating refresh tokens, RFC 7009 revocation at the token endpoint, RFC 7591 registration and
 * exact redirect-URI matching with RFC 8252 §7.3 loopback ports; the consent page is ours
 * (workers/oauth/consent-page.ts).
 */

/** Paths on the issuer's origin. The provider serves all but the authorization endpoint. */
export const OAUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
} as const;

/** Access tokens live 15 minutes: an agent refreshes, and a leaked token is soon worthless. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A grant lives 30 days from its last refresh, so an agent in use keeps working and an idle one lapses. */
export const REFRESH_TOKEN_IDLE_TTL_SECONDS = 30 * 24 * 60 * 60;

type OAuthEnv = Pick<Env, "OAUTH_KV">;

const servers = new Map<string, OAuthAuthorizationServer<OAuthEnv>>();

/** The authorization server for this deployment's WEB_URL and BASE_URL; built once per isolate. */
export function authorizationServer(env: object): OAuthAuthorizationServer<OAuthEnv> {
  const issuer = webUrl(env);
  const resource = protectedResource(env);
  const key = `${issuer} ${resource}`;
  let server = servers.get(key);
  if (!server) {
    // Its metadata also advertises the Client ID Metadata Documents client-metadata.ts resolves.
    server = new AuthorizationServerWithDocuments<OAuthEnv>({
      issuer,
      resources: [resource],
      authorizeEndpoint: OAUTH_PATHS.authorize,
      tokenEndpoint: OAUTH_PATHS.token,
      clientRegistrationEndpoint: OAUTH_PATHS.register,
      scopesSupported: SCOPE_NAMES,
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTTL: REFRESH_TOKEN_IDLE_TTL_SECONDS,
      refreshTokenIdleTTL: REFRESH_TOKEN_IDLE_TTL_SECONDS,
      // The provider's default warning carries only the error code and its public description.
      onError: ({ status, code }) => console.warn(`oauth error ${status} ${code}`),
    });
    servers.set(key, server);
  }
  return server;
}

/** The helpers of the authorization server (parse and complete authorization, grants, clients). */
export function oauthApi(env: Env): OAuthHelpers {
  return authorizationServer(env).getOAuthApi(env);
}

/** The protected resource every token is issued for: the API at BASE_URL. */
export function protectedResource(env: object): string {
  return baseUrl(env);
}

/** The RFC 9728 well-known path prefix. */
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * RFC 9728 §3.1: the resource's metadata URL, the well-known path inserted between the host and
 * any path of the resource identifier. Every Bearer challenge names it (§5.1).
 */
export function protectedResourceMetadataUrl(env: object): string {
  const resource = new URL(protectedResource(env));
  const path = resource.pathname === "/" ? "" : resource.pathname;
  return `${resource.origin}${PROTECTED_RESOURCE_METADATA_PATH}${path}`;
}

/**
 * The provider's answer at one of its own endpoints (metadata, token and revocation, registration),
 * for the route table's routes of those paths (workers/web/routes): the table has throttled the
 * request; the provider handles the rest, CORS preflights included. They live on the issuer's
 * origin only, as the metadata says: elsewhere the path is the table's 404. The provider reads
 * bodies whole, so it is handed one already read within MAX_FORM_BYTES (413 past it).
 */
export async function serveProviderEndpoint(request: Request, url: URL, env: Env, ctx: ExecutionContext): Promise<Response> {
  const { origin, paths } = providerEndpoints(webUrl(env));
  if (url.origin !== origin || !paths.has(url.pathname)) throw new ApiError("not_found", `no resource at ${url.pathname}`);
  const bounded = request.body ? new Request(request, { body: await readBodyBytes(request, MAX_FORM_BYTES) }) : request;
  return authorizationServer(env).fetch(bounded, env, ctx);
}

const endpoints = new Map<string, { origin: string; paths: Set<string> }>();

/** The provider's endpoint paths on the issuer's origin, computed once per issuer. */
function providerEndpoints(web: string): { origin: string; paths: Set<string> } {
  let known = endpoints.get(web);
  if (!known) {
    const issuer = new URL(web);
    // RFC 8414 §3.1: an issuer with a path has its metadata at the well-known path followed by that path.
    const metadata = `${OAUTH_PATHS.metadata}${issuer.pathname === "/" ? "" : issuer.pathname}`;
    known = { origin: issuer.origin, paths: new Set([metadata, OAUTH_PATHS.token, OAUTH_PATHS.register]) };
    endpoints.set(web, known);
  }
  return known;
}

/** The OAuth endpoints and scopes for the OpenAPI security scheme; paths resolve on the issuer's origin. */
export function oauthDoc(env: object): OAuthDoc {
  const endpoint = (path: string) => new URL(path, webUrl(env)).href;
  return { authorizationUrl: endpoint(OAUTH_PATHS.authorize), tokenUrl: endpoint(OAUTH_PATHS.token), scopes: { ...SCOPES } };
}
