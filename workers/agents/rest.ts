import type { ResponseDoc } from "../core/route";
import { anonymousCaller } from "./caller";
import { invoke } from "./invoke";
import type { Tool } from "./tools";

/** Runs a tool for a REST request and answers its result as JSON (errors render as every API error does). */
export async function toolResponse<T extends Tool>(tool: T, input: Parameters<T["run"]>[0], request: Request, env: Env): Promise<Response> {
  const out = await invoke(tool, input, anonymousCaller(request), env);
  return Response.json(out, { headers: { "Cache-Control": "no-store" } });
}

/** The responses every agent operation documents besides its 200 and 422. */
export function toolResponses(tool: Tool): Record<number, ResponseDoc> {
  const docs: Record<number, ResponseDoc> = {
    200: { description: tool.title, schema: tool.output },
    429: { description: "The agent's per-minute budget is spent", headers: { "Retry-After": "seconds" } },
  };
  if (tool.tier === "paid") docs[402] = { description: `Paid: an x402 payment or an OAuth token with ${tool.scope}` };
  return docs;
}
