import { route } from "../../core/route";
import { PublisherParams } from "../../kernel/fields";
import { membersOf } from "../members";
import { MembersView, memberView } from "../schemas";

export const getPublisherMembers = route({
  method: "GET",
  path: "/v1/admin/publishers/:publisher/members",
  tag: "admin",
  summary: "List the members of a publisher's studio",
  description: "Requires the admin token.",
  auth: "admin",
  params: PublisherParams,
  responses: { 200: { description: "The members, by address", schema: MembersView } },
  async handle({ env, params }) {
    const members = (await membersOf(env, params.publisher)).map(memberView);
    return Response.json({ publisher: params.publisher, members }, { headers: { "Cache-Control": "no-store" } });
  },
});
