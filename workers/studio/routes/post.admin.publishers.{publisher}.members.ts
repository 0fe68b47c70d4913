import { route } from "../../core/route";
import { PublisherParams } from "../../kernel/fields";
import { putMember } from "../members";
import { MemberBody, MemberView, memberView } from "../schemas";

export const postPublisherMember = route({
  method: "POST",
  path: "/v1/admin/publishers/:publisher/members",
  tag: "admin",
  summary: "Add a member to a publisher's studio, or change their role",
  description: "The member signs in at {WEB_URL}/studio/sign-in with a magic link mailed to this address. Requires the admin token.",
  auth: "admin",
  params: PublisherParams,
  body: MemberBody,
  responses: { 201: { description: "The member", schema: MemberView } },
  async handle({ env, params, body }) {
    const row = await putMember(env, params.publisher, body.email, body.role);
    return Response.json(memberView(row), { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
