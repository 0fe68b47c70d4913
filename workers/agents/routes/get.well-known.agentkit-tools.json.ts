import { route } from "../../core/route";
import { agentkitTools } from "../manifests/agentkit-tools";

export const getAgentkitTools = route({
  method: "GET",
  path: "/.well-known/agentkit-tools.json",
  tag: "discovery",
  summary: "Wallet-agent tool manifest: each tool's HTTP operation, tier and x402 terms",
  auth: "none",
  responses: { 200: { description: "The manifest", contentType: "application/json" } },
  handle({ env }) {
    return Response.json(agentkitTools(env), { headers: { "Cache-Control": "public, max-age=300" } });
  },
});
