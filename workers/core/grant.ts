/**
 * What the route table knows of OAuth: the grant a valid access token stands for, and the port through
 * which the router asks for it. The OAuth server (workers/oauth/) implements the port; core/ never
 * imports it, so the HTTP layer stays below every domain.
 */

/** What a valid access token lets an agent do: act for `listenerId`, as OAuth client `clientId`, within `scopes`. */
export interface OAuthGrant {
  listenerId: number;
  clientId: string;
  scopes: string[];
}

/**
 * Resolves the request's bearer token for a route whose credential is `bearer` (required: throws the
 * 401 challenge without one) or `agent` (optional: null without an Authorization header).
 */
export type BearerResolver = (auth: "bearer" | "agent", env: Env, request: Request) => Promise<OAuthGrant | null>;
