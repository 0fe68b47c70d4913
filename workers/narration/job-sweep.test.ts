import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../api";
import { database, renderJobs } from "../db";
import { resendStaleJobs, STALE_AFTER_MS } from "./job-sweep";

afterEach(() => vi.restoreAllMocks());

async function job(id: string, state: "queued" | "running" | "done" | "failed", ageMs: number) {
  const at = new Date(Date.now() - ageMs);
  await database(env).insert(renderJobs).values({ id, text: "Hello.", state, createdAt: at, startedAt: state === "queued" ? null : at });
}

describe("lost render jobs", () => {
  it("re-sends only jobs queued or running for longer than a consumer may live", async () => {
    await job("stale-queued", "queued", STALE_AFTER_MS + 60_000);
    await job("stale-running", "running", STALE_AFTER_MS + 60_000);
    await job("fresh-queued", "queued", 60_000);
    await job("old-done", "done", STALE_AFTER_MS * 3);
    await job("old-failed", "failed", STALE_AFTER_MS * 3);
    const sendBatch = vi.spyOn(env.RENDER_QUEUE, "sendBatch").mockResolvedValue({} as never);

    expect(await resendStaleJobs(env)).toBe(2);
    const sent = sendBatch.mock.calls.flatMap(([messages]) => [...messages].map((m) => (m.body as { job_id: string }).job_id));
    expect(sent.sort()).toEqual(["stale-queued", "stale-running"]);
  });

  it("runs from the ten-minute cron", async () => {
    await job("stale", "queued", STALE_AFTER_MS + 60_000);
    const sendBatch = vi.spyOn(env.RENDER_QUEUE, "sendBatch").mockResolvedValue({} as never);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/10 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(sendBatch).toHaveBeenCalledTimes(1);
  });
});
