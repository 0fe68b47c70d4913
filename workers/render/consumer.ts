import * as v from "valibot";
import { RenderMessage } from "../kernel/render-messages";
import { renderText, type Synthesizers } from "./pipeline/render";
import type { Later, Listener } from "./pipeline/store";
import { leave, seat } from "./pipeline/turns";
import { jobStore } from "./job-store";
import { renderErrorCode, renderStore, type ClaimedJob, type RenderResult, type RenderStoreRpc } from "../kernel/render-contract";
import { loggableError } from "../core/errors";

/** Retry delay after the nth failed attempt: 10 s, 20 s, 40 s, ... capped at 5 minutes. */
export function backoffSeconds(attempts: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, attempts - 1));
}

/**
 * How often a Queue render asks whether a listener's stream took its job over. Each ask is a D1 read
 * in the API Worker, whose CPU every render waits on: asked before every voiced paragraph, the demo
 * made one per paragraph, 145 when asked once a second (bench/results.md "Issue 44: what the edit and
 * the demo waited on"). A render taken over voices at most a second more before it stops.
 */
const HOLD_CHECK_MS = 1000;

/** `ask`, answered true without asking when it was asked less than `ms` ago. */
function askingAtMostEvery(ms: number, ask: () => Promise<boolean>): () => Promise<boolean> {
  let asked = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - asked < ms) return Promise.resolve(true);
    asked = now;
    return ask();
  };
}

/** How often a lane whose batch is taken looks again while another lane is still claiming its job. */
const CLAIM_WAIT_MS = 5;

/** How often a lane with nothing left to render looks for a new job while its renders' last writes are stored. */
const NEXT_LOOK_MS = 50;

/** A lane of the consumer: where it renders, and its place in lastOwners. */
interface Lane {
  render(claim: ClaimedJob): Promise<unknown>;
  index: number;
}

/**
 * The renders each of the two render processes of one machine runs at once (with a peer, below): a
 * render waits on the store for about half its time (its rows and objects cross to the API process),
 * and a second render in the same process fills those waits. The demo was narrated 75 s after Ready
 * with two, 87 to 121 s with one, 68 s with three (bench/results.md); two keeps a process's memory at
 * two renders' audio. Without a peer (on Cloudflare) the consumer renders one job at a time.
 */
const LANES_PER_PROCESS = 2;

/**
 * The owner (publisher) of the job each lane claimed last, kept across batches: this isolate's lanes,
 * then the peer's. A job of one of them waits behind a queued job of any other owner
 * (RenderStoreRpc.claimJob, JobDeferred), so a new publisher's article waits for no render that
 * starts after it; a publisher alone, or publishers each the last of a lane, render in every lane.
 */
const lastOwners: (string | null)[] = Array(2 * LANES_PER_PROCESS).fill(null);

/**
 * A second render process on the same machine (RenderPeer, workers/render/index.ts): it renders a job
 * the consumer claimed, as runJob does here, on a core of its own.
 */
export interface RenderPeerRpc {
  run(claim: ClaimedJob): Promise<void>;
}

/**
 * The render Queue consumer. Delivery is at least once, so each message re-reads its job and a job
 * already finished is acked without work. A failed render goes back to "queued" with its error and
 * the message is retried with exponential backoff; after max_retries it lands in the dead-letter
 * queue (consumeDeadLetters). With a `peer`, the batch is rendered in lanes, LANES_PER_PROCESS in this
 * isolate and as many on the peer, each taking the next message when its render ends: an isolate runs
 * on one thread, and the Queue hands out one batch at a time. A lane whose batch is taken while another
 * still renders takes the next job waiting in the store (renderNext). The peer's lanes render high jobs here.
 */
export async function consumeRenderBatch(batch: MessageBatch<unknown>, env: object, synthesizers: Synthesizers, peer?: RenderPeerRpc): Promise<void> {
  const store = renderStore(env);
  const waiting = [...batch.messages];
  // What each lane is doing: "claiming" from taking a job until it renders it (or has acked its message).
  const doing: ("idle" | "claiming" | "rendering")[] = [];
  const others = (index: number, what: (typeof doing)[number]) => doing.some((d, i) => i !== index && d === what);
  const run = async (index: number, render: Lane["render"]) => {
    const lane: Lane = {
      index,
      async render(claim) {
        doing[index] = "rendering";
        return render(claim);
      },
    };
    for (;;) {
      const message = waiting.shift();
      // The batch taken: while another lane still renders or a render's last writes are stored (the Queue
      // sends its next batch only when this one ends), this one renders the next job waiting rather
      // than idle until then. A lane still claiming is waited for first: its claim says whose job it
      // renders (lastOwners).
      if (!message) while (others(index, "claiming")) await scheduler.wait(CLAIM_WAIT_MS);
      if (!message && !others(index, "rendering") && storing === 0) break;
      doing[index] = "claiming";
      try {
        if (message) await consumeMessage(store, message, lane);
        else if (!(await renderNext(store, lane))) {
          if (others(index, "rendering")) break;
          await scheduler.wait(NEXT_LOOK_MS); // only writes are left: look again while they are stored
        }
      } finally {
        doing[index] = "idle";
      }
    }
  };
  // A job is done once its public audio is stored; its master and the paragraphs it voiced are stored
  // while the lane takes its next job (store.ts renderWriter `later`), and the batch ends when they are
  // (workerd keeps a queue handler's isolate until then).
  const lateWrites: Promise<unknown>[] = [];
  let storing = 0;
  const later = (work: Promise<unknown>) => {
    storing++;
    lateWrites.push(work.finally(() => storing--));
  };
  const renderHere = (claim: ClaimedJob) => runJob(store, claim, synthesizers, { later });
  // A high job (render-now, an agent's) is the one a listener streams, and this isolate's render of it
  // yields to the stream's at every step (turns.ts): on the peer it would take a core from the stream.
  const lanes = [run(0, renderHere)];
  if (peer) {
    const onPeer = (claim: ClaimedJob) => (claim.priority === "high" ? renderHere(claim) : peer.run(claim));
    for (let i = 1; i < LANES_PER_PROCESS; i++) lanes.push(run(i, renderHere));
    for (let i = 0; i < LANES_PER_PROCESS; i++) lanes.push(run(LANES_PER_PROCESS + i, onPeer));
  }
  await Promise.all(lanes);
  await Promise.all(lateWrites);
}

/** Claims the job of one message and has `lane` render it; acks or retries the message. */
async function consumeMessage(store: RenderStoreRpc, message: Message<unknown>, lane: Lane): Promise<void> {
  const parsed = v.safeParse(RenderMessage, message.body);
  if (!parsed.success) {
    console.error("render queue: malformed message dropped");
    message.ack(); // can never succeed: retrying would only fill the dead-letter queue
    return;
  }
  try {
    const owners = lastOwners.filter((owner) => owner !== null);
    const claim = await store.claimJob(parsed.output.job_id, "queue", owners);
    if (claim && "streamedForSeconds" in claim) {
      // A listener's stream is rendering it (render-stream.ts): look again once its lease is over,
      // when the job is done, or back in the queue if the stream was cut off with its render.
      message.retry({ delaySeconds: claim.streamedForSeconds });
      return;
    }
    if (claim && !("deferred" in claim)) {
      lastOwners[lane.index] = claim.owner;
      await lane.render(claim);
    }
    message.ack();
  } catch (err) {
    if (await recordFailure(store, parsed.output.job_id, message.attempts, err)) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    else message.ack();
  }
}

/**
 * Has `lane` render the next queued job (RenderStoreRpc.claimNext, by the fairness rule); false when
 * none waits. A failed render goes back to "queued" with its error, and its own message, still to
 * come, retries it with the Queue's backoff (claimNext takes only jobs never tried).
 */
async function renderNext(store: RenderStoreRpc, lane: Lane): Promise<boolean> {
  const claim = await store.claimNext(lastOwners.filter((owner) => owner !== null)).catch((err: unknown) => {
    console.warn(`render queue: no next job taken: ${loggableError(err)}`);
    return null;
  });
  if (!claim) return false;
  lastOwners[lane.index] = claim.owner;
  await lane.render(claim).catch((err: unknown) => recordFailure(store, claim.jobId, claim.attempt, err));
  return true;
}

/**
 * Records a failed render on its job; true when it may be retried (the job is back in "queued" with
 * its error), false when no retry can succeed (the job failed now rather than after every backoff).
 * With `requeue` the retry is sent as a new message (a stream's render, render-stream.ts, whose
 * Queue message waits out the stream's lease).
 */
export async function recordFailure(store: RenderStoreRpc, jobId: string, attempts: number, err: unknown, requeue = false): Promise<boolean> {
  const detail = err instanceof Error ? err.message : String(err);
  // The job's error is shown to API clients: expected failures say what failed, surprises
  // (storage, bugs) only that something did; the log keeps the message, without bound SQL parameters.
  const code = renderErrorCode(err);
  const error = code ? detail : "internal error while rendering";
  if (code === "unknown_voice" || code === "too_long") {
    await store.failJob(jobId, error);
    return false;
  }
  console.warn(`render job ${jobId} attempt ${attempts} failed: ${loggableError(err)}`);
  await store.retryJob(jobId, error, requeue);
  return true;
}

/**
 * Renders a claimed job and marks it done. With `listener`, the MP3 is also handed over as it is made
 * (render-stream.ts); with `later`, the job is done before its private master is stored (store.ts
 * renderWriter); a claim the caller does not own only renders. Null when a listener's stream took
 * the job over meanwhile (RenderStoreRpc.claimJob): the render stopped before its next paragraph, and
 * nothing failed.
 */
export async function runJob(
  store: RenderStoreRpc,
  claim: ClaimedJob,
  synthesizers: Synthesizers,
  { listener, later }: { listener?: Listener; later?: Later } = {},
): Promise<RenderResult | null> {
  // Ties the job's later lines (retries, failures) to the request that created it.
  console.log(`render job ${claim.jobId} started req=${claim.requestId}`);
  const phases = { synthesisMs: 0, encodingMs: 0, markingMs: 0 };
  // A listener waits on a stream: it goes before every job the Queue runs (turns.ts).
  const place = seat(listener ? "stream" : claim.priority, claim.owner);
  const job = jobStore(store, claim);
  // A stream may take over a job the Queue runs (RenderStoreRpc.claimJob): this render then stops
  // before a paragraph it would voice, asking at most once every HOLD_CHECK_MS.
  const holdsJob = !listener && claim.owned ? () => store.holdsJob(claim.jobId, claim.attempt) : undefined;
  const result = await renderText(
    job.store,
    {
      text: claim.text,
      voice: claim.voice,
      language: claim.language,
      defaultVoice: claim.defaultVoice,
      publisher: claim.publisher,
      title: claim.title,
      url: claim.url,
      tenant: claim.tenant,
    },
    synthesizers,
    { phases, listener, seat: place, holdsJob: holdsJob && askingAtMostEvery(HOLD_CHECK_MS, holdsJob), later },
  )
    .catch(async (err: unknown) => {
      if (!holdsJob || (await holdsJob().catch(() => true))) throw err;
      console.log(`render job ${claim.jobId} left to a listener's stream, which took it over`);
      return null;
    })
    .finally(() => leave(place));
  if (!result || !claim.owned) return result;
  // The phases of the render this job ran (none for audio found cached): docs/benchmarks.md "Benchmarks".
  const timing = result.cached ? { synthesisMs: null, encodingMs: null, markingMs: null } : phases;
  await store.completeJob(claim, { result, ...job.audio(), ...timing });
  return result;
}

/**
 * The dead-letter consumer: a message here exhausted its retries, so its job is marked failed
 * (keeping the last error) unless it finished meanwhile, and the listener's slot is released.
 */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: object): Promise<void> {
  const store = renderStore(env);
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (parsed.success) await store.failJob(parsed.output.job_id, "render failed after every retry");
    message.ack();
  }
}
