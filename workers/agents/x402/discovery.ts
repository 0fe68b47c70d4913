import type { HTTPAdapter, HTTPRequestContext } from "@x402/core/http";
import { bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";
import type * as v from "valibot";
import { inputJsonSchema } from "../json-schema";

/**
 * What a paid tool's PaymentRequired tells a discovery service (x402 extension "bazaar",
 * specs/extensions/bazaar.md of coinbase/x402): how to call it again, on the surface it was asked on.
 * The declarations are made by the extension's own helpers, so they stay in its format as it moves.
 */

/** The bazaar declaration of an MCP tool: its name, description and MCP inputSchema (the one tools/list shows). */
export function mcpDiscovery(tool: { name: string; description: string; input: v.GenericSchema }): Record<string, unknown> {
  return declareDiscoveryExtension({
    toolName: tool.name,
    description: tool.description,
    transport: "streamable-http",
    inputSchema: inputJsonSchema(tool.input),
  });
}

/** The inputs of a REST operation, as its route declares them (core/route.ts Route). */
export interface HttpOperation {
  path: string;
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
}

/** The request as the extension's server hook reads it (@x402/core HTTPAdapter). */
function adapterOf(request: Request): HTTPAdapter {
  const url = new URL(request.url);
  return {
    getHeader: (name) => request.headers.get(name) ?? undefined,
    getMethod: () => request.method,
    getPath: () => url.pathname,
    getUrl: () => request.url,
    getAcceptHeader: () => request.headers.get("accept") ?? "",
    getUserAgent: () => request.headers.get("user-agent") ?? "",
  };
}

/**
 * The bazaar declaration of a REST operation: the query or JSON body schema and the path parameters,
 * then the extension's server hook (enrichDeclaration) adds the method and the route template with this
 * request's path parameters, as @x402/core's resource server does for each request.
 */
export function httpDiscovery(request: Request, op: HttpOperation): Record<string, unknown> {
  const pathParamsSchema = op.params && inputJsonSchema(op.params);
  const declared = op.body
    ? declareDiscoveryExtension({ bodyType: "json", inputSchema: inputJsonSchema(op.body), pathParamsSchema })
    : declareDiscoveryExtension({ inputSchema: op.query ? inputJsonSchema(op.query) : { properties: {} }, pathParamsSchema });
  const context: HTTPRequestContext = { adapter: adapterOf(request), path: new URL(request.url).pathname, method: request.method, routePattern: op.path };
  return { bazaar: bazaarResourceServerExtension.enrichDeclaration!(declared.bazaar, context) };
}
