import { route } from "../../core/route";
import { toolResponse, toolResponses } from "../rest";
import { subscribe_topic } from "../tools";

export const postAgentSubscriptions = route({
  method: "POST",
  path: "/v1/agent/subscriptions",
  tag: "agents",
  operationId: "subscribe_topic",
  summary: "subscribe_topic: set the acting listener's topics; returns their private feed URL",
  description: subscribe_topic.description,
  auth: "agent",
  body: subscribe_topic.input,
  responses: toolResponses(subscribe_topic),
  handle({ body, grant, request, env, table, requestId }) {
    return toolResponse(subscribe_topic, body, { grant, request, env, table, requestId });
  },
});
