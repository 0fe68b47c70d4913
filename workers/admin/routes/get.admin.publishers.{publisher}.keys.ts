import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { publisherKeysOf } from "../../kernel/publisher-keys";
import { PublisherParams } from "../../kernel/fields";
import { PublisherKeyView, publisherKeyView } from "../publisher-schemas";

const PublisherKeyList = named("PublisherKeyList", v.object({ keys: v.array(PublisherKeyView) }));

export const listPublisherKeys = route({
  method: "GET",
  path: "/v1/admin/publishers/:publisher/keys",
  tag: "admin",
  summary: "A publisher's API keys, revoked ones included (prefixes only, never the keys)",
  auth: "admin",
  params: PublisherParams,
  responses: { 200: { description: "The keys, oldest first", schema: PublisherKeyList } },
  async handle({ env, params }) {
    const rows = await publisherKeysOf(env, params.publisher);
    return Response.json({ keys: rows.map(publisherKeyView) }, { headers: { "Cache-Control": "no-store" } });
  },
});
