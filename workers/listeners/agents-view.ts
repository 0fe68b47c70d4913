import type { GrantSummary } from "@cloudflare/workers-oauth-provider";
import * as v from "valibot";
import type { GrantMetadata } from "../oauth/grants";
import { named } from "../core/schema-registry";

/** One agent a listener allowed: an OAuth grant, as GET /v1/listeners/{token}/agents lists it. */
export const AgentGrantView = named(
  "AgentGrant",
  v.object({
    grant_id: v.pipe(v.string(), v.description("Revoke with DELETE /v1/listeners/{token}/agents/{grant_id}.")),
    client_id: v.string(),
    client_name: v.pipe(v.string(), v.description("The name the client registered with (not verified).")),
    redirect_host: v.pipe(v.string(), v.description("Where the client receives its access.")),
    scopes: v.array(v.string()),
    created_at: v.string(),
    expires_at: v.pipe(v.nullable(v.string()), v.description("When the grant lapses unless the agent refreshes before.")),
  }),
);

export const AgentGrantList = named("AgentGrantList", v.object({ agents: v.array(AgentGrantView) }));

/** A grant as the listener sees it. */
export function agentGrantView(grant: GrantSummary): v.InferOutput<typeof AgentGrantView> {
  const metadata = (grant.metadata ?? {}) as Partial<GrantMetadata>;
  return {
    grant_id: grant.id,
    client_id: grant.clientId,
    client_name: metadata.clientName ?? grant.clientId,
    redirect_host: metadata.redirectHost ?? "",
    scopes: grant.scope,
    created_at: new Date(grant.createdAt * 1000).toISOString(),
    expires_at: grant.expiresAt === undefined ? null : new Date(grant.expiresAt * 1000).toISOString(),
  };
}
