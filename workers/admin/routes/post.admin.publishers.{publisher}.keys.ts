import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { issuePublisherKey } from "../../kernel/publisher-keys";
import { PublisherParams } from "../../kernel/fields";
import { PublisherKeyView, publisherKeyView } from "../publisher-schemas";

const IssuedPublisherKey = named(
  "IssuedPublisherKey",
  v.object({
    key: v.pipe(v.string(), v.description("Shown only here: send it as Authorization: Bearer <key>. Only its SHA-256 is kept.")),
    ...PublisherKeyView.entries,
  }),
);

export const issuePublisherKeyRoute = route({
  method: "POST",
  path: "/v1/admin/publishers/:publisher/keys",
  tag: "admin",
  summary: "Issue an API key for a publisher: render, jobs and plays for that publisher's articles only",
  auth: "admin",
  params: PublisherParams,
  responses: { 201: { description: "The new key, shown once", schema: IssuedPublisherKey } },
  async handle({ env, params }) {
    const { key, row } = await issuePublisherKey(env, params.publisher);
    return Response.json({ key, ...publisherKeyView(row) }, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
