import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import worker from "../api";
import { database, renderJobs } from "../db";

const db = () => database(env);

/** docs/narration-api.md "Known limits": the cron re-sends jobs "queued or running for longer than 20 minutes". */
const STALE_AFTER_MS = 20 * 60_000;

async function job(id: string, state: "queued" | "running" | "done" | "failed", ageMs: number) {
  const at = new Date(Date.now() - ageMs);
  await db()
    .insert(renderJobs)
    .values({ id, text: `Lost and found: ${id}.`, state, createdAt: at, startedAt: state === "queued" ? null : at });
}

const stateOf = async (id: string) => (await db().select().from(renderJobs).where(eq(renderJobs.id, id)).get())!.state;

/**
 * The lost-job sweep through the real render queue: the jobs below were written with no Queue
 * message (as after a redeploy that dropped one), so only the sweep's messages can finish them.
 */
describe("lost render jobs, through the real queue", () => {
  it("the ten-minute cron re-sends jobs queued or running past a consumer's life, and the consumer finishes them", { timeout: 30_000 }, async () => {
    await job("stale-queued", "queued", STALE_AFTER_MS + 60_000);
    await job("stale-running", "running", STALE_AFTER_MS + 60_000);
    await job("fresh-queued", "queued", STALE_AFTER_MS - 60_000);
    await job("old-failed", "failed", STALE_AFTER_MS * 3);
    const sent = vi.spyOn(env.RENDER_QUEUE, "sendBatch");
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/10 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // Younger than a consumer may live, its own message may still be on its way: it is not sent again.
    // (The consumer may still render it, as it renders any job never tried while it has time: consumer.ts.)
    const jobIds = sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => (m.body as { job_id: string }).job_id));
    expect(jobIds.sort()).toEqual(["stale-queued", "stale-running"]);
    await vi.waitFor(async () => expect([await stateOf("stale-queued"), await stateOf("stale-running")]).toEqual(["done", "done"]), {
      timeout: 25_000,
      interval: 100,
    });
    expect(await stateOf("old-failed")).toBe("failed");
  });
});
