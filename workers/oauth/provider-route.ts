import { route, type Method, type Route } from "../core/route";
import { serveProviderEndpoint } from "./server";

/**
 * A route of one of the OAuth provider's own endpoints (@cloudflare/workers-oauth-provider): the
 * table throttles it on the per-address read budget (registration writes to KV for anyone) and the
 * provider does everything else, the client's authentication, its CORS preflight (OPTIONS among
 * `methods`) and HEAD included. Not in the OpenAPI document: RFC 8414 metadata describes these.
 */
export function providerRoute(methods: readonly Method[], path: string, summary: string, ok: { status: number; description: string }): Route {
  return route({
    method: methods,
    path,
    tag: "oauth",
    summary,
    auth: "none",
    rateLimit: "read",
    openapi: false,
    responses: { [ok.status]: { description: ok.description } },
    handle: ({ request, url, env, ctx }) => serveProviderEndpoint(request, url, env, ctx),
  });
}
