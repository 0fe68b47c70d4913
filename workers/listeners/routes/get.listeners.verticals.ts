import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { LISTENER_VERTICALS } from "../../kernel/verticals";

const VerticalCatalog = named(
  "VerticalCatalog",
  v.object({
    verticals: v.array(
      v.object({
        slug: v.pipe(v.string(), v.description("Canonical slug, stored and returned everywhere.")),
        label: v.string(),
        aliases: v.pipe(v.array(v.string()), v.description("Also accepted on input, canonicalised to slug.")),
      }),
    ),
  }),
);

const body = JSON.stringify({ verticals: LISTENER_VERTICALS });

export const listVerticals = route({
  method: "GET",
  path: "/v1/listeners/verticals",
  tag: "listeners",
  summary: "The static catalog of listener verticals and their aliases",
  auth: "none",
  rateLimit: "read",
  responses: { 200: { description: "The catalog", schema: VerticalCatalog } },
  handle() {
    return new Response(body, { headers: { "content-type": "application/json", "Cache-Control": "public, max-age=3600" } });
  },
});
