import type { Route } from "../core/route";
import { AGENT_OPERATIONS } from "./manifests/agent-operations";
import { getOpenApi } from "./openapi";
import { mcpEndpoint } from "./routes/all.mcp.v1";
import { putListenerPlan } from "./routes/put.admin.listeners.{token}.plan";
import { getAgentkitTools } from "./routes/get.well-known.agentkit-tools.json";
import { getMcpManifest } from "./routes/get.well-known.mcp.json";
import { getOpenAiApp } from "./routes/get.well-known.openai-app.yaml";

/** Discovery documents, the MCP server, the REST operation of each agent tool, and the listener plan agents' audio depends on. */
export const agentRoutes: Route[] = [getOpenApi, getMcpManifest, getOpenAiApp, getAgentkitTools, mcpEndpoint, ...AGENT_OPERATIONS, putListenerPlan];
