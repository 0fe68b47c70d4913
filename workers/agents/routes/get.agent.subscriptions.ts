import { route } from "../../core/route";
import { toolResponse, toolResponses } from "../rest";
import { list_subscriptions } from "../tools";

export const getAgentSubscriptions = route({
  method: "GET",
  path: "/v1/agent/subscriptions",
  tag: "agents",
  operationId: "list_subscriptions",
  summary: "list_subscriptions: the feeds this agent set up for the acting listener",
  description: list_subscriptions.description,
  auth: "agent",
  responses: toolResponses(list_subscriptions),
  handle({ grant, request, env, table, requestId }) {
    return toolResponse(list_subscriptions, {}, { grant, request, env, table, requestId });
  },
});
