import { ApiError } from "../core/errors";
import type { ResponseDoc } from "../core/route";
import { bearerChallenge, requireScope } from "../kernel/oauth/bearer";
import { resolveCaller } from "./caller";
import { accessOf, actingCaller, paidTerms, paidWork, signIn } from "./dispatch";
import { invoke } from "./invoke";
import type { Tool } from "./tools";
import { paymentRequiredResponse } from "./x402/http-transport";
import { paidHttpCall } from "./x402/paid-call";
import { MIN_VALIDITY_SECONDS } from "./x402/pay";
import { restResource } from "./x402/requirements";
import { SIWX_HEADER } from "./x402/siwx";

const json = (out: unknown) => Response.json(out, { headers: { "Cache-Control": "no-store" } });

/**
 * Runs a tool for a REST request and answers its result as JSON (errors render as every API error
 * does). The caller is the bearer token's (401 for a bad one); a paid tool without the token's scope
 * goes through the x402 HTTP transport (402 PAYMENT-REQUIRED, PAYMENT-SIGNATURE, PAYMENT-RESPONSE);
 * a wallet acting for its subscription without a token signs in with the SIGN-IN-WITH-X header.
 * `bearer`: the operation takes a bearer token with the tool's scope and nothing else (README "REST
 * for agents": GET /v1/agent/articles), so without one it is 401 with the RFC 9728 challenge.
 */
export async function toolResponse<T extends Tool>(
  tool: T,
  input: Parameters<T["run"]>[0],
  request: Request,
  env: Env,
  options: { bearer?: boolean } = {},
): Promise<Response> {
  const resolved = await resolveCaller(request, env);
  if (options.bearer) {
    if (!resolved.agentKey.startsWith("oauth:")) throw new ApiError("unauthorized", "a bearer access token is required", bearerChallenge(env));
    requireScope(resolved, tool.scope);
  }
  const caller = actingCaller(tool, resolved);
  const access = accessOf(tool, caller);
  if (access.kind === "run") return json(await invoke(tool, input, caller, env));
  if (access.kind === "pay") {
    const terms = await paidTerms(access.tool, input, caller, env);
    return paidHttpCall({
      env,
      request,
      tool: access.tool,
      description: tool.title,
      state: terms.state,
      listenerId: caller.listenerId,
      ...paidWork(tool, input, caller, env, terms),
      render: json,
    });
  }
  const signed = await signIn(env, caller, request.headers.get(SIWX_HEADER), restResource(env, request, tool.title));
  if (!signed.ok) return paymentRequiredResponse(env, signed.challenge);
  return json(await invoke(tool, input, signed.caller, env));
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
  if (tool.tier === "paid") {
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
    docs[402] = { description: "No token: a wallet signs in with SIGN-IN-WITH-X (the challenge is in PAYMENT-REQUIRED)", headers: { "PAYMENT-REQUIRED": "base64 PaymentRequired" } };
  }
  if (tool.actsForListener || options.bearer) docs[403] = { description: `A bearer token without ${tool.scope}`, headers: { "WWW-Authenticate": 'Bearer error="insufficient_scope"' } };
  return docs;
}
