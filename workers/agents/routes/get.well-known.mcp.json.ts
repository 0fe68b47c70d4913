import { route } from "../../core/route";
import { mcpManifest } from "../manifests/mcp-manifest";

export const getMcpManifest = route({
  method: "GET",
  path: "/.well-known/mcp.json",
  tag: "discovery",
  summary: "MCP manifest: the endpoint, how to authenticate or pay, and the six tools with their JSON Schemas",
  auth: "none",
  responses: { 200: { description: "The manifest (version 2026-01)", contentType: "application/json" } },
  handle({ env }) {
    return Response.json(mcpManifest(env), { headers: { "Cache-Control": "public, max-age=300" } });
  },
});
