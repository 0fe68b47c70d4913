import { bearerToken } from "../core/auth";
import { ApiError } from "../core/errors";
import type { BearerResolver, OAuthGrant } from "../core/grant";
import type { Scope } from "./scopes";
import { authorizationServer, protectedResource, protectedResourceMetadataUrl } from "./server";

/** The props the consent page stores in every grant (workers/oauth/consent-page.ts). */
export interface GrantProps {
  listenerId: number;
}

/**
 * RFC 9728 §5.1: every Bearer challenge names the resource's metadata URL, so a client that meets
 * a 401 can discover the authorization server. RFC 6750 §3.1: a request without credentials gets no
 * error code; a token that is expired, revoked or otherwise invalid gets invalid_token.
 */
export function bearerChallenge(env: object, error?: "invalid_token"): Record<string, string> {
  const params = [`resource_metadata="${protectedResourceMetadataUrl(env)}"`];
  if (error) params.push(`error="${error}"`);
  return { "WWW-Authenticate": `Bearer ${params.join(", ")}` };
}

/**
 * The grant behind the request's bearer token: null when the request has no Authorization header
 * (free tools run anonymously), the grant for a valid token, and a 401 challenge for anything else.
 * The token must have been issued for this API (its audience is BASE_URL, RFC 8707), unexpired and
 * unrevoked; the provider checks all three against its KV record.
 */
export async function bearerGrant(request: Request, env: Env): Promise<OAuthGrant | null> {
  const header = request.headers.get("Authorization");
  if (header === null) return null;
  const token = bearerToken(header);
  const validated = token ? await authorizationServer(env).validateToken<GrantProps>(protectedResource(env), token, env) : null;
  if (!validated || !Number.isSafeInteger(validated.props?.listenerId)) {
    throw new ApiError("unauthorized", "the access token is invalid, expired or revoked", bearerChallenge(env, "invalid_token"));
  }
  return { listenerId: validated.props.listenerId, clientId: validated.clientId, scopes: validated.scope };
}

/**
 * The OAuth credentials of the route table (core/route.ts AuthKind), resolved before anything else
 * about the request is read. `bearer`: an access token is required, so without one it is 401 with the
 * RFC 9728 §5.1 challenge (RFC 6750 §3.1: no error code for a request without credentials). `agent`:
 * without an Authorization header the agent is anonymous (it may pay or sign in per call, in the call
 * pipeline); a bad token is the 401 with error="invalid_token", never served as if it were absent.
 * The router's BearerResolver (core/grant.ts), given to it by workers/router.ts.
 */
export const resolveBearer: BearerResolver = async (auth, env, request) => {
  const grant = await bearerGrant(request, env);
  if (!grant && auth === "bearer") throw new ApiError("unauthorized", "a bearer access token is required", bearerChallenge(env));
  return grant;
};

/**
 * RFC 6750 §3.1: a valid token without the scope an operation needs is a 403 naming that scope, and (MCP
 * authorization, "Scope Challenge Handling"; RFC 9728 §5.1) the resource's metadata, so the client can step
 * up: ask the listener for the one scope it lacks. The challenge names only what the operation needs; a
 * client keeps what it already holds by asking for both (the consent page then asks only for the new one,
 * workers/oauth/consent-page.ts).
 */
export function requireScope(env: object, grant: { scopes: readonly string[] }, scope: Scope): void {
  if (grant.scopes.includes(scope)) return;
  throw new ApiError("forbidden", `the access token lacks the ${scope} scope`, {
    "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${protectedResourceMetadataUrl(env)}"`,
  });
}
