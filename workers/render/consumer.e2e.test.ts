import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { database, listeners, renderJobs } from "../db/index";
import { audioObjectPath } from "../kernel/audio-objects";

const db = () => database(env);

async function job(id: string) {
  return db().select().from(renderJobs).where(eq(renderJobs.id, id)).get();
}

describe("render Worker through the real queue", () => {
  it("consumes a job sent to RENDER_QUEUE: running, done, audio in the shared bucket, slot released", { timeout: 20_000 }, async () => {
    const [{ id: listenerId }] = await db()
      .insert(listeners)
      .values({ email: "l@example.test", tokenHash: "th", tokenEncrypted: "te" })
      .returning({ id: listeners.id });
    await db().insert(renderJobs).values({ id: "job-e2e", text: "Through the queue and back.", listenerId });
    const gate = env.RENDER_GATE.getByName(String(listenerId));
    await gate.acquire("job-e2e", 3, 60_000);
    await env.RENDER_QUEUE.send({ job_id: "job-e2e" });
    await vi.waitFor(async () => expect((await job("job-e2e"))!.state).toBe("done"), { timeout: 15_000, interval: 100 });
    const done = await job("job-e2e");
    expect(await env.AUDIO.head(audioObjectPath(done!.audioKey!, "mp3"))).not.toBeNull();
    expect(await gate.inFlight()).toBe(0);
  });
});
