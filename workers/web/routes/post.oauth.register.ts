import { OAUTH_PATHS, serveProviderEndpoint } from "../../kernel/oauth/server";
import { route } from "../../core/route";

/**
 * POST {WEB_URL}/oauth/register: RFC 7591 dynamic client registration, handled by the provider.
 * It writes to KV for anyone, so it spends the per-address read budget like every other call.
 */
export const postOAuthRegister = route({
  method: ["POST", "OPTIONS"],
  path: OAUTH_PATHS.register,
  tag: "oauth",
  summary: "OAuth 2.1 dynamic client registration (RFC 7591)",
  auth: "none",
  rateLimit: "read",
  openapi: false,
  responses: { 201: { description: "The registered client" } },
  handle: ({ request, url, env, ctx }) => serveProviderEndpoint(request, url, env, ctx),
});
