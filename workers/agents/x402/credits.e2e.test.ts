import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../../test/support/articles";
import { call } from "../../../test/support/client";
import { mcpClient } from "../../../test/support/mcp-client";
import { recorded, walletAgent } from "../../../test/support/x402";
import { testVars } from "../../../test/vars";
import worker from "../../api";
import { articles, database, renderJobs, x402Credits } from "../../db";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from "./mcp-transport";

/**
 * Issue 40 item 7: a paid get_audio_url whose render fails after the payment settled is owed a credit
 * (credits.ts), and the payer's next paid call for that article is rendered on it, not settled again. The
 * render Worker consumes the queue here (vitest.config.ts, project narration-e2e); the render fails for real:
 * the article is longer than one render narrates (workers/render/consumer.ts fails it at once), until its
 * publisher shortens it.
 */

type Agent = ReturnType<typeof walletAgent>;

const TOO_LONG = "Word ".repeat(30_000);
const credits = () => database(env).select().from(x402Credits);
const shorten = (id: number) =>
  database(env)
    .update(articles)
    .set({ bodyText: "Owls hunt at dusk over the meadow.", contentHash: `short-${id}` })
    .where(eq(articles.id, id));

describe("a paid render that fails after settlement is owed, and the next paid call renders on the credit", () => {
  it("REST: PAYMENT-RESPONSE says the failed call was charged; the next one says nothing was settled", async () => {
    const article = await addArticle({ bodyText: TOO_LONG });
    const agent: Agent = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    const pay = async () => {
      const unpaid = await call(path);
      expect(unpaid.status).toBe(402);
      const required = agent.http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
      return call(path, { headers: agent.http.encodePaymentSignatureHeader(await agent.http.createPaymentPayload(required)) });
    };
    const settlementOf = (res: Response): SettleResponse => agent.http.getPaymentSettleResponse((name) => res.headers.get(name));

    const failed = await pay();
    expect(failed.status).toBe(503);
    const charged = settlementOf(failed);
    expect(charged).toMatchObject({ success: true, amount: "20000", payer: agent.account.address });
    expect(await credits()).toMatchObject([{ tool: "get_audio_url", subject: JSON.stringify({ slug: article.slug }), amountMicros: 20_000 }]);
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });

    await shorten(article.id);
    const rendered = await pay();
    expect(rendered.status).toBe(200);
    expect(await rendered.json()).toMatchObject({ state: "ready", slug: article.slug, sponsored: false });
    expect(settlementOf(rendered)).toMatchObject({ success: true, amount: "0", transaction: charged.transaction });
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    expect(await credits()).toEqual([]);
  });

  it("MCP: the same, in _meta['x402/payment-response']", async () => {
    const article = await addArticle({ bodyText: TOO_LONG });
    const agent = walletAgent();
    const client = await mcpClient({ ip: "203.0.113.41" });
    const pay = async () => {
      const unpaid = await client.callTool({ name: "get_audio_url", arguments: { slug: article.slug } });
      const payload = await agent.http.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
      return client.callTool({ name: "get_audio_url", arguments: { slug: article.slug }, _meta: { [MCP_PAYMENT_META]: payload } });
    };

    const failed = await pay();
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ code: "unavailable" });
    const charged = failed._meta?.[MCP_PAYMENT_RESPONSE_META] as SettleResponse;
    expect(charged).toMatchObject({ success: true, amount: "20000" });

    await shorten(article.id);
    const rendered = await pay();
    expect(rendered.isError).toBeFalsy();
    expect(rendered.structuredContent).toMatchObject({ state: "ready", slug: article.slug });
    expect(rendered._meta?.[MCP_PAYMENT_RESPONSE_META]).toMatchObject({ success: true, amount: "0", transaction: charged.transaction });
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    expect(await credits()).toEqual([]);
    await client.close();
  });

  it("a paid render answered pending that fails later is owed too; one that succeeds owes nothing", async () => {
    const article = await addArticle({ bodyText: TOO_LONG });
    const agent = walletAgent();
    const path = `/v1/agent/articles/${article.slug}/audio`;
    // The call answers at once, pending, as an MCP task's does: the render fails after the answer.
    const fetchNow = (headers: Record<string, string> = {}) =>
      worker.fetch(new Request(new URL(path, testVars.BASE_URL), { headers }), { ...env, AGENT_AUDIO_WAIT_SECONDS: "0" } as Env, createExecutionContext());
    const pay = async () => {
      const unpaid = await fetchNow();
      expect(unpaid.status).toBe(402);
      const required = agent.http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
      return fetchNow(agent.http.encodePaymentSignatureHeader(await agent.http.createPaymentPayload(required)));
    };
    const settlementOf = (res: Response): SettleResponse => agent.http.getPaymentSettleResponse((name) => res.headers.get(name));
    /** Waits for the render Worker to end `jobId` (no timing is asserted: the test fails on a job that never ends). */
    const ended = async (jobId: string) => {
      for (;;) {
        const [job] = await database(env).select().from(renderJobs).where(eq(renderJobs.id, jobId));
        if (job.state === "done" || job.state === "failed") return job.state;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };

    const pending = await pay();
    expect(pending.status).toBe(200);
    const first = (await pending.json()) as { state: string; job_id: string };
    expect(first.state).toBe("pending");
    const charged = settlementOf(pending);
    expect(charged).toMatchObject({ success: true, amount: "20000" });
    expect(await ended(first.job_id)).toBe("failed");

    await shorten(article.id);
    const credited = await pay();
    expect(credited.status).toBe(200);
    const second = (await credited.json()) as { state: string; job_id: string };
    expect(settlementOf(credited)).toMatchObject({ success: true, amount: "0", transaction: charged.transaction });
    expect(await recorded()).toMatchObject({ calls: 1, nonces: 1 });
    // Still pending: the credit stays owed, now on the new render.
    expect(await credits()).toMatchObject([{ jobId: second.job_id }]);
    expect(await ended(second.job_id)).toBe("done");

    // That render succeeded: the credit counts no more, and the next call is charged (the cached price).
    const paid = await pay();
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ state: "ready" });
    expect(settlementOf(paid)).toMatchObject({ success: true, amount: "1000" });
    expect(await recorded()).toMatchObject({ calls: 2, nonces: 2 });
  });
});
