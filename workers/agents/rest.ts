import type { ResponseDoc, Route } from "../core/route";
import type { OAuthGrant } from "../core/grant";
import { requireScope } from "../oauth/bearer";
import { callerOf } from "./caller";
import { callTool, type Surface } from "./call";
import type { Tool } from "./tools";
import { httpPayments } from "./x402/paid-call";
import { MIN_VALIDITY_SECONDS } from "./x402/pay";
import { isPaidTool } from "./x402/prices";
import { SIWX_HEADER } from "./x402/siwx";

const json = (out: unknown) => Response.json(out, { headers: { "Cache-Control": "no-store" } });

/**
 * The REST transport of a tool call: the x402 HTTP transport (402 PAYMENT-REQUIRED, PAYMENT-SIGNATURE,
 * PAYMENT-RESPONSE), Sign-In-With-X in the SIGN-IN-WITH-X header, the result as JSON (errors render as
 * every API error does).
 */
function restSurface(env: Env, request: Request, tool: Tool, operation: Route): Surface<Response> {
  return { ...httpPayments(env, request, tool.title, operation), signInProof: () => request.headers.get(SIWX_HEADER), render: json };
}

/** The REST operation of `tool` in the route table serving the request: its operationId is the tool's name. */
function operationOf(table: readonly Route[], tool: Tool): Route {
  const operation = table.find((r) => r.operationId === tool.name);
  if (!operation) throw new Error(`no REST operation for tool ${tool.name}`);
  return operation;
}

/**
 * Runs a tool for a REST request through the one call pipeline (call.ts), for the grant the route
 * table resolved (auth "agent": null without a token). `bearer`: the operation takes a bearer token
 * with the tool's scope and nothing else (docs/agents/tools.md "Agents": GET /v1/agent/articles); its route
 * declares auth "bearer", so the token is there, and a token without the scope is 403.
 */
export function toolResponse<T extends Tool>(
  tool: T,
  input: Parameters<T["run"]>[0],
  { grant, request, env, table, requestId }: { grant: OAuthGrant | null; request: Request; env: Env; table: readonly Route[]; requestId: string },
  options: { bearer?: boolean } = {},
): Promise<Response> {
  if (options.bearer && grant) requireScope(env, grant, tool.scope);
  return callTool(env, tool, input, callerOf(grant, request, requestId), restSurface(env, request, tool, operationOf(table, tool)));
}

/** Why a paid operation answers 503 (x402/requirements.ts x402Settings). */
export const PAID_TOOLS_OFF =
  "Paid tools are off: no X402_PAY_TO, no USDC on X402_NETWORK, or the local facilitator (it moves no money) at a BASE_URL that is not this machine";

/** The responses every agent operation documents besides its 200 and 422 (`bearer` as for toolResponse). */
export function toolResponses(tool: Tool, options: { bearer?: boolean } = {}): Record<number, ResponseDoc> {
  const docs: Record<number, ResponseDoc> = {
    200: { description: tool.title, schema: tool.output },
    401: {
      description: options.bearer ? "No bearer token, or an invalid, expired or revoked one" : "An invalid, expired or revoked bearer token",
      headers: { "WWW-Authenticate": "Bearer resource_metadata=..." },
    },
    429: { description: "The agent's per-minute budget is spent", headers: { "Retry-After": "seconds" } },
  };
  if (isPaidTool(tool.name)) {
    docs[402] = {
      description:
        `Paid: an x402 payment (PAYMENT-REQUIRED; retry with PAYMENT-SIGNATURE), or an OAuth token with ${tool.scope}. A refused payment ` +
        "gets the 402 again, its error naming why: e.g. replay (one authorization pays for one call, even sent at once), " +
        `expires_too_soon (validBefore less than ${MIN_VALIDITY_SECONDS} s away). ` +
        (tool.annotations.readOnlyHint
          ? "The payment is settled after the work: a call that fails is not charged."
          : "The payment is settled before the work, whose effect lasts: an error after that still carries PAYMENT-RESPONSE, as the payment was taken."),
      headers: { "PAYMENT-REQUIRED": "base64 PaymentRequired", "WWW-Authenticate": "Bearer resource_metadata=..." },
    };
    docs[503] = { description: PAID_TOOLS_OFF };
  } else if (tool.actsForListener) {
    docs[402] = {
      description: "No token: a wallet signs in with SIGN-IN-WITH-X (the challenge is in PAYMENT-REQUIRED)",
      headers: { "PAYMENT-REQUIRED": "base64 PaymentRequired" },
    };
  }
  if (tool.actsForListener || options.bearer)
    docs[403] = { description: `A bearer token without ${tool.scope}`, headers: { "WWW-Authenticate": 'Bearer error="insufficient_scope", scope=...' } };
  return docs;
}
