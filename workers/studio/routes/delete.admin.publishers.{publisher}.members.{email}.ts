import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { removeMember } from "../members";
import { MemberParams } from "../schemas";

export const deletePublisherMember = route({
  method: "DELETE",
  path: "/v1/admin/publishers/:publisher/members/:email",
  tag: "admin",
  summary: "Remove a member from a publisher's studio",
  description: "Their studio session opens nothing of this publisher from the next request on. Requires the admin token.",
  auth: "admin",
  params: MemberParams,
  responses: { 204: { description: "Removed" }, 404: { description: "Not a member" } },
  async handle({ env, params }) {
    if (!(await removeMember(env, params.publisher, params.email))) throw new ApiError("not_found", "no such member");
    return new Response(null, { status: 204 });
  },
});
