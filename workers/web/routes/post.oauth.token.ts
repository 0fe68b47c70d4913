import { OAUTH_PATHS, serveProviderEndpoint } from "../../kernel/oauth/server";
import { route } from "../../core/route";

/**
 * POST {WEB_URL}/oauth/token: the token endpoint (codes with PKCE, rotating refresh tokens) and RFC
 * 7009 revocation, handled by the provider, which authenticates the client itself (OAuth 2.1 §3.2.1).
 */
export const postOAuthToken = route({
  method: ["POST", "OPTIONS"],
  path: OAUTH_PATHS.token,
  tag: "oauth",
  summary: "OAuth 2.1 token endpoint",
  auth: "none",
  rateLimit: "read",
  openapi: false,
  responses: { 200: { description: "Tokens" } },
  handle: ({ request, url, env, ctx }) => serveProviderEndpoint(request, url, env, ctx),
});
