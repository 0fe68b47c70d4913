import { createMessageBatch, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { addArticle } from "../../test/support/articles";
import { renderEnv, store } from "../../test/support/render-store";
import { database, renderJobs } from "../db/index";
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
    // b1 is rendered next; then Backlog Press's, nobody else waiting.
    await consumeRenderBatch(batchOf("b1", "a2", "a3"), renderEnv, { offline: offlineSynthesizer });
    for (const id of ["b1", "a2", "a3"]) expect(await jobRow(id)).toMatchObject({ state: "done" });
    expect(send).toHaveBeenCalledTimes(2);
  }, 120_000);

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
  it("renders a batch in two lanes at once, here and on the peer", async () => {
    await jobsOf("Two Lanes Weekly", ["a1", "a2"]);
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
    const batch = batchOf("a1", "a2");
    const acks = batch.messages.map((m) => vi.spyOn(m, "ack"));
    await consumeRenderBatch(batch, renderEnv, { offline: offlineSynthesizer }, peer);
    expect(onPeer).toEqual(["a2"]);
    for (const id of ["a1", "a2"]) expect(await jobRow(id)).toMatchObject({ state: "done", attempts: 1 });
    for (const ack of acks) expect(ack).toHaveBeenCalled();
    // a1 was still rendering here when the peer started a2.
    expect((await jobRow("a1"))!.finishedAt!.getTime()).toBeGreaterThan(peerStarted);
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
    await jobsOf("Lane Ledger", ["l1", "l2", "l3"]);
    await consume("l1"); // only this isolate's lane renders (a batch of one)
    await jobsOf("Newcomer News", ["n1"]);
    // The peer's lane rendered no Lane Ledger job last, but n1 must wait for no render that starts
    // after it: both lanes send Lane Ledger's jobs to the back.
    await consume("l2", "l3");
    for (const id of ["l2", "l3"]) expect(await jobRow(id)).toMatchObject({ state: "queued", attempts: 0 });
    expect(onPeer).toEqual([]);
    // Two publishers, each the last of a lane, with nobody else waiting: neither is deferred.
    expect(await store.claimJob("l2", "queue", ["Lane Ledger", "Newcomer News"])).toMatchObject({ owned: true });
    expect(await store.claimJob("n1", "queue", ["Lane Ledger", "Newcomer News"])).toMatchObject({ owned: true });
  }, 120_000);

  it("renders a high job here whichever lane takes it, where it yields to a listener's stream", async () => {
    await jobsOf("High Street Herald", ["h1", "h2"], "high");
    const onPeer: string[] = [];
    const peer: RenderPeerRpc = {
      async run(claim) {
        onPeer.push(claim.jobId);
        await runJob(store, claim, { offline: offlineSynthesizer });
      },
    };
    await consumeRenderBatch(batchOf("h1", "h2"), renderEnv, { offline: offlineSynthesizer }, peer);
    expect(onPeer).toEqual([]);
    for (const id of ["h1", "h2"]) expect(await jobRow(id)).toMatchObject({ state: "done", attempts: 1 });
  }, 120_000);

  it("puts a job the peer failed back in the Queue with its error, as a failure here would", async () => {
    await jobsOf("Peerless Post", ["p1", "p2"]);
    const peer: RenderPeerRpc = {
      run: async () => {
        throw new Error("the peer process went away");
      },
    };
    const batch = batchOf("p1", "p2");
    const retry = vi.spyOn(batch.messages[1], "retry");
    await consumeRenderBatch(batch, renderEnv, { offline: offlineSynthesizer }, peer);
    expect(await jobRow("p1")).toMatchObject({ state: "done" });
    expect(await jobRow("p2")).toMatchObject({ state: "queued", attempts: 1, error: "internal error while rendering" });
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 10 });
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
