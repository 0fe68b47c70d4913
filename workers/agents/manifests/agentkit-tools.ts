import { baseUrl } from "../../core/config";
import { inputJsonSchema } from "../json-schema";
import { TOOLS } from "../tools";
import { x402Terms } from "../x402/requirements";
import { routeOf } from "./agent-operations";
import { MANIFEST_VERSION, priceEntry, tierOf } from "./mcp-manifest";

/**
 * GET /.well-known/agentkit-tools.json (docs/agents/tools.md "Agents"): the six tools for wallet agents,
 * each with its HTTP operation and, for paid ones, the x402 terms.
 */
export function agentkitTools(env: object) {
  const x402 = x402Terms(env);
  return {
    version: MANIFEST_VERSION,
    tools: TOOLS.map((tool) => {
      const op = routeOf(tool.name);
      const price = priceEntry(tool);
      return {
        name: tool.name,
        description: tool.description,
        parameters: inputJsonSchema(tool.input),
        method: op.method,
        url: `${baseUrl(env)}${op.path.replace(/:(\w+)/g, "{$1}")}`,
        tier: tierOf(tool),
        ...(price.price ? { x402: { ...price.price, scheme: "exact", network: x402.network, asset: x402.asset, pay_to: x402.pay_to } } : {}),
      };
    }),
  };
}
