import * as v from "valibot";
import { webUrl } from "../../core/config";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { SCOPE_NAMES } from "../scopes";
import { PROTECTED_RESOURCE_METADATA_PATH, protectedResource } from "../server";

const ProtectedResourceMetadata = named(
  "ProtectedResourceMetadata",
  v.object({
    resource: v.pipe(v.string(), v.description("The resource identifier: BASE_URL, the audience of every access token.")),
    authorization_servers: v.pipe(v.array(v.string()), v.description("Issuers of tokens for this API: WEB_URL.")),
    scopes_supported: v.array(v.string()),
    bearer_methods_supported: v.array(v.string()),
    resource_name: v.string(),
  }),
);

/**
 * RFC 9728 §3 protected-resource metadata of the API, where a Bearer challenge points (§5.1).
 * Served from the route table, not the provider, because the API's tools also run without a token
 * (README): the provider's resource host would answer every tokenless request with a 401.
 */
export const getProtectedResourceMetadata = route({
  method: "GET",
  path: PROTECTED_RESOURCE_METADATA_PATH,
  tag: "discovery",
  summary: "OAuth protected-resource metadata (RFC 9728): the authorization server and scopes of the API",
  auth: "none",
  responses: { 200: { description: "Metadata", schema: ProtectedResourceMetadata } },
  handle({ env }) {
    const out: v.InferOutput<typeof ProtectedResourceMetadata> = {
      resource: protectedResource(env),
      authorization_servers: [webUrl(env)],
      scopes_supported: SCOPE_NAMES,
      // RFC 6750 §2.1 only: tokens in query strings end up in logs.
      bearer_methods_supported: ["header"],
      resource_name: "Narration",
    };
    return Response.json(out, { headers: { "Cache-Control": "public, max-age=300" } });
  },
});
