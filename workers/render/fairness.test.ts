import { createMessageBatch, env } from "cloudflare:test";
import { eq, notInArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { addArticle } from "../../test/support/articles";
import { holdingMasters, renderEnv, store } from "../../test/support/render-store";
import { database, renderJobs } from "../db/index";
import { masterObjectPaths } from "../kernel/audio-objects";
import { consumeRenderBatch, runJob, type RenderPeerRpc } from "./consumer";
import { offlineSynthesizer } from "./engine/offline";
import { inTurn, leave, seat } from "./pipeline/turns";

const jobRow = (id: string) => database(env).select().from(renderJobs).where(eq(renderJobs.id, id)).get();
const batchOf = (...ids: string[]) =>
  createMessageBatch(
    "narration-render",
    ids.map((id, i) => ({ id: `m-${id}`, timestamp: new Date(), attempts: 1, body: { job_id: id }, seq: i })),
  );

/** Jobs of publisher `publisher`'s articles, one each. */
async function jobsOf(publisher: string, ids: string[], priority: "normal" | "high" = "normal") {
  for (const id of ids) {
    const article = await addArticle({ publisher, bodyText: `An article of ${publisher}.` });
    await database(env).insert(renderJobs).values({ id, articleId: article.id, priority });
  }
}

describe('fairness between publishers in the render Queue (docs/narration.md "Priorities and fairness")', () => {
  it("sends the next job of the publisher rendered last to the back of the Queue while another publisher's job waits", async () => {
    await jobsOf("Backlog Press", ["a1", "a2", "a3"]);
    await jobsOf("Other Gazette", ["b1"]);
    const send = vi.spyOn(env.RENDER_QUEUE, "send");
    // The Queue delivers in order: Backlog Press's batch first, Other Gazette's job behind it.
    await consumeRenderBatch(batchOf("a1", "a2", "a3"), renderEnv, { offline: offlineSynthesizer });
    // a1 rendered; a2 and a3 went back to the Queue behind b1, still queued and never claimed.
    expect(await jobRow("a1")).toMatchObject({ state: "done" });
    expect(await jobRow("a2")).toMatchObject({ state: "queued", attempts: 0 });
    expect(await jobRow("a3")).toMatchObject({ state: "queued", attempts: 0 });
    expect(send.mock.calls.map(([body]) => body)).toEqual([{ job_id: "a2" }, { job_id: "a3" }]);
    // b1 is rendered next; then Backlog Press's, nobody else waiting. Test files share one isolate
    // (vitest.config.ts), and a job another file's work left after this test's reset would be another
    // publisher's job waiting, which rightly defers a3 (a CI run saw a3 stay queued): only this test's
    // jobs are left.
    await database(env)
      .delete(renderJobs)
      .where(notInArray(renderJobs.id, ["a1", "a2", "a3", "b1"]));
    await consumeRenderBatch(batchOf("b1", "a2", "a3"), renderEnv, { offline: offlineSynthesizer });
    for (const id of ["b1", "a2", "a3"]) expect(await jobRow(id)).toMatchObject({ state: "done" });
    expect(send).toHaveBeenCalledTimes(2);
  }, 120_000);

  it("gives a lane with nothing left in its batch the next job: high first, then an owner outside the lanes' last, then the oldest; never one tried before", async () => {
    await jobsOf("Backlog Press", ["b1", "b2"]);
    await jobsOf("Other Gazette", ["o1"]);
    await database(env).update(renderJobs).set({ attempts: 1, error: "no_provider: offline/en-US-female: timeout" }).where(eq(renderJobs.id, "b1"));
    // b1 failed once: its own message brings its retry. b2 is the oldest of the rest.
    expect(await store.claimNext()).toMatchObject({ jobId: "b2", owner: "Backlog Press", owned: true, attempt: 1 });
    await jobsOf("Backlog Press", ["b3"]);
    await jobsOf("Other Gazette", ["o2"]);
    expect(await store.claimNext(["Other Gazette"])).toMatchObject({ jobId: "b3" });
    expect(await store.claimNext(["Backlog Press"])).toMatchObject({ jobId: "o1" });
    await jobsOf("Late Leader", ["h1"], "high");
    expect(await store.claimNext(["Late Leader"])).toMatchObject({ jobId: "h1", priority: "high" });
    expect(await store.claimNext(["Other Gazette"])).toMatchObject({ jobId: "o2" });
    expect(await store.claimNext()).toBeNull();
    expect(await jobRow("b1")).toMatchObject({ state: "queued", attempts: 1 });
  });

  it("defers a job only behind one of at least its priority, and never a stream's claim", async () => {
    await jobsOf("Backlog Press", ["h1"], "high");
    await jobsOf("Other Gazette", ["n1"]);
    // A high job is not held back by another publisher's normal one.
    expect(await store.claimJob("h1", "queue", ["Backlog Press"])).toMatchObject({ owner: "Backlog Press", owned: true });
    await jobsOf("Backlog Press", ["n2"]);
    expect(await store.claimJob("n2", "queue", ["Backlog Press"])).toEqual({ deferred: true });
    expect(await store.claimJob("n2", "queue", ["Other Gazette"])).toMatchObject({ owned: true });
    await jobsOf("Backlog Press", ["n3"]);
    expect(await store.claimJob("n3", "stream")).toMatchObject({ owned: true });
  });
});

describe('two render processes on one machine (docs/narration.md "Two render processes on one machine")', () => {
  it("renders a batch in four lanes at once, two here and two on the peer", async () => {
    await jobsOf("Two Lanes Weekly", ["a1", "a2", "a3", "a4"]);
    const onPeer: string[] = [];
    let peerStarted = 0;
    // The peer renders as RenderPeer does (runJob through the store), recording what it was handed and when.
    const peer: RenderPeerRpc = {
      async run(claim) {
        onPeer.push(claim.jobId);
        peerStarted = Date.now();
        await runJob(store, claim, { offline: offlineSynthesizer });
      },
    };
    const batch = batchOf("a1", "a2", "a3", "a4");
    const acks = batch.messages.map((m) => vi.spyOn(m, "ack"));
    await consumeRenderBatch(batch, renderEnv, { offline: offlineSynthesizer }, peer);
    expect(onPeer.sort()).toEqual(["a3", "a4"]);
    for (const id of ["a1", "a2", "a3", "a4"]) expect(await jobRow(id)).toMatchObject({ state: "done", attempts: 1 });
    for (const ack of acks) expect(ack).toHaveBeenCalled();
    // a1 and a2 were still rendering here when the peer started its last.
    for (const id of ["a1", "a2"]) expect((await jobRow(id))!.finishedAt!.getTime()).toBeGreaterThan(peerStarted);
  }, 120_000);

  it("defers a job of a publisher either lane rendered last behind a new publisher's, and lets two publishers' backlogs share the lanes", async () => {
    const onPeer: string[] = [];
    const peer: RenderPeerRpc = {
      async run(claim) {
        onPeer.push(claim.jobId);
        await runJob(store, claim, { offline: offlineSynthesizer });
      },
    };
    const consume = (...ids: string[]) => consumeRenderBatch(batchOf(...ids), renderEnv, { offline: offlineSynthesizer }, peer);
    await jobsOf("Lane Ledger", ["l1"]);
    await consume("l1"); // only this isolate's lane renders (a batch of one, no other job waiting)
    await jobsOf("Lane Ledger", ["l2", "l3"]);
    await jobsOf("Newcomer News", ["n1"]);
    // The other lanes rendered no Lane Ledger job last, but n1 must wait for no render that starts
    // after it: every lane sends Lane Ledger's jobs to the back.
    await consume("l2", "l3");
    for (const id of ["l2", "l3"]) expect(await jobRow(id)).toMatchObject({ state: "queued", attempts: 0 });
    expect(onPeer).toEqual([]);
    // Two publishers, each the last of a lane, with nobody else waiting: neither is deferred.
    expect(await store.claimJob("l2", "queue", ["Lane Ledger", "Newcomer News"])).toMatchObject({ owned: true });
    expect(await store.claimJob("n1", "queue", ["Lane Ledger", "Newcomer News"])).toMatchObject({ owned: true });
  }, 120_000);

  it("has a lane whose batch is taken render the next job waiting while the other lane renders, a new publisher's first", async () => {
    await jobsOf("Steady Press", ["s1", "s2", "s3"]);
    await jobsOf("Fresh Tribune", ["f1"]);
    const onPeer: string[] = [];
    const peer: RenderPeerRpc = {
      async run(claim) {
        onPeer.push(claim.jobId);
        await runJob(store, claim, { offline: offlineSynthesizer });
      },
    };
    // The Queue has sent s1's message alone; the others' are still to come.
    await consumeRenderBatch(batchOf("s1"), renderEnv, { offline: offlineSynthesizer }, peer);
    // While s1 rendered here, the other lanes took f1 before the older s2: Fresh Tribune was no lane's last.
    const rows = await Promise.all(["s1", "f1", "s2"].map(jobRow));
    for (const row of rows.slice(0, 2)) expect(row).toMatchObject({ state: "done", attempts: 1 });
    expect(rows[1]!.startedAt!.getTime()).toBeLessThanOrEqual(rows[2]!.startedAt?.getTime() ?? Number.POSITIVE_INFINITY);
    expect(rows[1]!.startedAt!.getTime()).toBeLessThan(rows[0]!.finishedAt!.getTime());
    // f1's own message, when it comes, finds it done: acked, nothing rendered again.
    const later = batchOf("f1");
    const ack = vi.spyOn(later.messages[0], "ack");
    await consumeRenderBatch(later, renderEnv, { offline: offlineSynthesizer }, peer);
    expect(ack).toHaveBeenCalled();
    expect(onPeer.filter((id) => id === "f1").length).toBeLessThanOrEqual(1);
    expect(await jobRow("f1")).toMatchObject({ attempts: 1 });
  }, 120_000);

  it("renders a high job here whichever lane takes it, where it yields to a listener's stream", async () => {
    await jobsOf("High Street Herald", ["h1", "h2", "h3", "h4"], "high");
    const onPeer: string[] = [];
    const peer: RenderPeerRpc = {
      async run(claim) {
        onPeer.push(claim.jobId);
        await runJob(store, claim, { offline: offlineSynthesizer });
      },
    };
    // Four messages: the peer's two lanes take h3 and h4.
    await consumeRenderBatch(batchOf("h1", "h2", "h3", "h4"), renderEnv, { offline: offlineSynthesizer }, peer);
    expect(onPeer).toEqual([]);
    for (const id of ["h1", "h2", "h3", "h4"]) expect(await jobRow(id)).toMatchObject({ state: "done", attempts: 1 });
  }, 120_000);

  it("puts a job the peer failed back in the Queue with its error, as a failure here would", async () => {
    await jobsOf("Peerless Post", ["p1", "p2", "p3"]);
    const peer: RenderPeerRpc = {
      run: async () => {
        throw new Error("the peer process went away");
      },
    };
    // Three messages: the peer's first lane takes p3.
    const batch = batchOf("p1", "p2", "p3");
    const retry = vi.spyOn(batch.messages[2], "retry");
    await consumeRenderBatch(batch, renderEnv, { offline: offlineSynthesizer }, peer);
    for (const id of ["p1", "p2"]) expect(await jobRow(id)).toMatchObject({ state: "done" });
    expect(await jobRow("p3")).toMatchObject({ state: "queued", attempts: 1, error: "internal error while rendering" });
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 10 });
  }, 120_000);

  it("renders a job queued while the batch's last render stores its master, before the batch ends", async () => {
    await jobsOf("Held Master Daily", ["m1"]);
    // The master's write is held until released; every other object is stored at once.
    const { store: holding, release } = holdingMasters();
    let ended = false;
    const batch = consumeRenderBatch(batchOf("m1"), { STORE: holding }, { offline: offlineSynthesizer }).then(() => {
      ended = true;
    });
    const until = async (id: string) => {
      for (let i = 0; i < 600 && (await jobRow(id))?.state !== "done"; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      return jobRow(id);
    };
    // m1 is done once its MP3 and Opus are stored, its master still waiting.
    const m1 = await until("m1");
    expect(m1).toMatchObject({ state: "done" });
    expect(await env.AUDIO.head(masterObjectPaths(m1!.audioKey!, 1)[0])).toBeNull();
    // A job queued now, with no message in this batch, is rendered by the lane meanwhile.
    await jobsOf("Next Up News", ["n1"]);
    expect(await until("n1")).toMatchObject({ state: "done" });
    expect(ended).toBe(false);
    release();
    await batch;
    expect(await env.AUDIO.head(masterObjectPaths(m1!.audioKey!, 1)[0])).not.toBeNull();
  }, 120_000);
});

describe("turns at the render isolate's CPU", () => {
  it("a stream's steps go before a Queue job's while it is seated, and one publisher's steps alternate with another's", async () => {
    const order: string[] = [];
    const step = (s: ReturnType<typeof seat>, name: string) => inTurn(s, () => order.push(name));
    const a = seat("normal", "A");
    const b = seat("normal", "B");
    const run = async (s: ReturnType<typeof seat>, name: string, n: number) => {
      for (let i = 0; i < n; i++) await step(s, `${name}${i}`);
    };
    const stream = seat("stream", "L");
    // While the stream is seated, the Queue's renders wait however often they ask.
    const queued = Promise.all([run(a, "a", 3), run(b, "b", 3)]);
    await run(stream, "s", 3);
    expect(order).toEqual(["s0", "s1", "s2"]);
    leave(stream);
    await queued;
    leave(a);
    leave(b);
    // Then A and B take turns: neither runs two steps while the other waits.
    const rest = order.slice(3);
    expect(rest).toHaveLength(6);
    for (let i = 1; i < rest.length; i++) expect(rest[i][0]).not.toBe(rest[i - 1][0]);
  });

  it("a listener's new stream takes its first step before a long stream of the same owner takes its next", async () => {
    const order: string[] = [];
    const long = seat("stream", "raw");
    const fresh = seat("stream", "raw");
    // While the long stream holds a turn, it asks for its next and the new stream for its first.
    const held = inTurn(long, () => scheduler.wait(10));
    const asked = [inTurn(long, () => order.push("long")), inTurn(fresh, () => order.push("fresh"))];
    await Promise.all([held, ...asked]);
    leave(long);
    leave(fresh);
    expect(order).toEqual(["fresh", "long"]);
  });
});
