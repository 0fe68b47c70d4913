import { route } from "../../core/route";
import { toolResponse, toolResponses } from "../rest";
import { digest } from "../tools";

export const postAgentDigest = route({
  method: "POST",
  path: "/v1/agent/digest",
  tag: "agents",
  operationId: "digest",
  summary: "digest: the top articles across topics over a window",
  description: digest.description,
  auth: "agent",
  body: digest.input,
  responses: toolResponses(digest),
  handle({ body, grant, request, env, table, requestId }) {
    return toolResponse(digest, body, { grant, request, env, table, requestId });
  },
});
