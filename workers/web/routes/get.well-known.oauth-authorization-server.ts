import { OAUTH_PATHS, serveProviderEndpoint } from "../../kernel/oauth/server";
import { route } from "../../core/route";

/**
 * GET {WEB_URL}/.well-known/oauth-authorization-server: RFC 8414 metadata, the provider's own
 * (@cloudflare/workers-oauth-provider), as are its CORS preflight and HEAD. Not in the OpenAPI
 * document: the metadata describes the authorization server itself.
 */
export const getAuthorizationServerMetadata = route({
  method: ["GET", "HEAD", "OPTIONS"],
  path: OAUTH_PATHS.metadata,
  tag: "oauth",
  summary: "OAuth 2.1 authorization server metadata (RFC 8414)",
  auth: "none",
  rateLimit: "read",
  openapi: false,
  responses: { 200: { description: "The authorization server's metadata" } },
  handle: ({ request, url, env, ctx }) => serveProviderEndpoint(request, url, env, ctx),
});
