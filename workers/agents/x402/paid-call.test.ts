import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../core/errors";
import { httpPayments, mcpPayments } from "./paid-call";
import { FailedAfterSettlement } from "./pay";

/** How each surface answers a call that failed after its payment settled (paid-call.ts PaymentTransport). */
describe("a failure after settlement", () => {
  const settlement = { success: true, transaction: `0x${"ab".repeat(32)}`, network: "eip155:84532", payer: "0x1" } as const;
  const failure = new FailedAfterSettlement(new ApiError("conflict", "the work failed"), settlement);

  it("is thrown through on MCP, for the server to render as a tool error carrying the settlement", () => {
    const transport = mcpPayments({ name: "get_audio_url", title: "Audio", description: "d", input: undefined as never }, undefined);
    expect(() => transport.failedAfterSettlement(failure)).toThrow(failure);
  });

  it("is the error's own answer over REST, with the settlement in PAYMENT-RESPONSE", async () => {
    const request = new Request("https://api.test/v1/agent/subscriptions", { method: "POST" });
    const res = httpPayments(env, request, "a subscription", { path: "/v1/agent/subscriptions", method: "POST" } as never).failedAfterSettlement(failure);
    expect(res.status).toBe(409);
    expect((await res.json<{ code: string }>()).code).toBe("conflict");
    const header = res.headers.get("PAYMENT-RESPONSE");
    expect(JSON.parse(atob(header!))).toMatchObject({ success: true, transaction: settlement.transaction });
  });
});
