import { eq } from "drizzle-orm";
import * as v from "valibot";
import { baseUrl, config } from "../../core/config";
import { enforceAddressLimit, NO_ADDRESS } from "../../core/rate-limit";
import { ApiError } from "../../core/errors";
import { type ArticleRow, database, type Database, type JobRow, listeners, renderJobs } from "../../db";
import { articleFor, doneJob } from "../../narration/article-audio-service";
import { audioReachOf, audioUrls, jobStreamUrl } from "../../kernel/public-urls";
import { VoiceField } from "../../narration/fields";
import { createJob, enqueueJob, newJobRow } from "../../narration/jobs-service";
import { checkRenderVoice, takeRenderSlot } from "../../narration/render-now-policy";
import { awaitJob, doneJobInVoice, durationOf, inFlightJobInVoice } from "../audio-jobs";
import type { Caller } from "../caller";
import { withPreroll } from "../preroll/sponsor";
import { SlugField } from "./fields";
import { defineTool } from "./tool";

/** The MCP arguments. `voice` is absent on purpose (docs/rules.md 4): only REST callers choose a voice. */
const Input = v.object({ slug: SlugField });

/** The REST query adds the voice (GET /v1/agent/articles/{slug}/audio?voice=...). */
export const VoiceParam = v.optional(VoiceField);

const Output = v.object({
  slug: v.string(),
  state: v.pipe(
    v.picklist(["ready", "pending"]),
    v.description("ready: audio_url plays now. pending: still rendering; poll poll_url until its state is done."),
  ),
  audio_url: v.pipe(v.nullable(v.string()), v.description("MP3 to play, when ready.")),
  opus_url: v.pipe(v.nullable(v.string()), v.description("The same audio as Ogg Opus, when ready.")),
  listen_seconds: v.pipe(v.nullable(v.number()), v.description("Duration in seconds, when ready.")),
  cached: v.pipe(v.boolean(), v.description("True when the audio existed before this call (no render was started or awaited).")),
  sponsored: v.pipe(v.boolean(), v.description("True when the audio starts with a short sponsor message (free plan).")),
  job_id: v.pipe(v.nullable(v.string()), v.description("The render job, when one was started or awaited.")),
  poll_url: v.pipe(v.nullable(v.string()), v.description("While pending: GET it until state is done; it then carries audio_url.")),
  stream_url: v.pipe(
    v.nullable(v.string()),
    v.description("While pending: an MP3 that plays now, as the render makes it, from its first paragraph; once done it redirects to audio_url's file."),
  ),
});

type Result = v.InferOutput<typeof Output>;

/**
 * Who hears the sponsor pre-roll: a caller acting for a listener on the free plan, unless the call
 * was paid (x402). Plus and pro listeners, and paying callers, get the bare audio.
 */
async function sponsored(env: Env, caller: Caller): Promise<boolean> {
  if (caller.paid || caller.listenerId === null) return false;
  const listener = await database(env).query.listeners.findFirst({ columns: { plan: true }, where: eq(listeners.id, caller.listenerId) });
  return listener?.plan === "free";
}

/** The article a call answers about: its slug, and its visibility, which decides its audio URLs' reach (kernel/public-urls.ts). */
type Narrated = Pick<ArticleRow, "slug" | "visibility">;

async function ready(env: Env, article: Narrated, job: JobRow & { audioKey: string }, cached: boolean, caller: Caller): Promise<Result> {
  const base = { slug: article.slug, state: "ready" as const, cached, job_id: job.id, poll_url: null, stream_url: null };
  if (await sponsored(env, caller)) {
    const stitched = await withPreroll(env, job.audioKey);
    // The stitched object exists as MP3 only: it has no master to build Opus from.
    // The stitched object narrates no article by its key: only its capability URL reaches it (kernel/public-urls.ts).
    const url = audioUrls(env, stitched.key, "private").audio_url;
    return { ...base, audio_url: url, opus_url: null, listen_seconds: Math.round(stitched.durationSeconds), sponsored: true };
  }
  const urls = audioUrls(env, job.audioKey, audioReachOf(article));
  const seconds = await durationOf(database(env), job.audioKey);
  return { ...base, audio_url: urls.audio_url, opus_url: urls.opus_url, listen_seconds: seconds, sponsored: false };
}

const hasAudio = (job: JobRow | undefined): job is JobRow & { audioKey: string } => !!job?.audioKey;

/**
 * The answer for a render `job` of the article `slug` made for `caller`: ready once done (the audio the
 * caller hears), pending with the polling path while it runs; a failed or cancelled render is
 * `unavailable`. One answer for a call that waited and for an MCP task's result (render-tasks.ts), where
 * `cached` says the audio was there before the task.
 */
export async function audioOfJob(env: Env, article: Narrated, job: JobRow, caller: Caller, cached = false): Promise<Result> {
  const { slug } = article;
  if (job.state === "done" && hasAudio(job)) return ready(env, article, job, cached, caller);
  if (job.state === "failed" || job.state === "cancelled") {
    throw new ApiError("unavailable", `the render of ${slug} ${job.state}: ${job.error ?? "no reason recorded"}`, { "Retry-After": "30" });
  }
  return {
    slug,
    state: "pending" as const,
    audio_url: null,
    opus_url: null,
    listen_seconds: null,
    cached: false,
    sponsored: false,
    job_id: job.id,
    poll_url: `${baseUrl(env)}/v1/articles/${encodeURIComponent(slug)}/audio`,
    stream_url: jobStreamUrl(env, job.id),
  };
}

/** The done job whose audio narrates the article's current text in `voice` (null: its own voice). */
function existing(db: Database, article: ArticleRow, voice: string | null): Promise<JobRow | undefined> {
  return voice === null ? doneJob(db, article) : doneJobInVoice(db, article, voice);
}

/**
 * What run takes: the MCP arguments, the REST voice, and how long to wait for a render (default
 * AGENT_AUDIO_WAIT_SECONDS; an MCP task waits none, its client polls: workers/agents/render-tasks.ts).
 */
type AudioInput = v.InferOutput<typeof Input> & { voice?: string; waitSeconds?: number };

/** The article asked for and the voice to narrate it in (null: its own voice); 404 when the caller may not see it. */
async function target(db: Database, input: AudioInput, caller: Caller): Promise<{ article: ArticleRow; voice: string | null }> {
  const article = await articleFor(db, input.slug, caller.listenerId);
  if (!article) throw new ApiError("not_found", `no article ${input.slug}`);
  return { article, voice: input.voice && input.voice !== article.voice ? input.voice : null };
}

/** What get_audio_url's lookup found: the article, the voice asked for, and the audio already made in it. */
interface AudioPlan {
  article: ArticleRow;
  voice: string | null;
  found: JobRow | undefined;
}

/** The article, voice and existing audio a call would answer with; 404 when the caller may not see the article. */
async function locate(db: Database, input: AudioInput, caller: Caller): Promise<AudioPlan> {
  const { article, voice } = await target(db, input, caller);
  return { article, voice, found: await existing(db, article, voice) };
}

/**
 * Starts a render of `article` in `voice` (null: its own) for `caller`. A paid call has paid for it. A
 * token acting for a listener spends what render-now would (issue 40 item 7): a voice the listener's plan
 * allows and one of their render slots, against their daily budget, and one of the caller's address's hourly
 * renders (core/rate-limit.ts `renders`), however many tokens it holds; the job carries the listener, so the
 * slot is freed when it ends, and a job that never starts gives it back.
 */
async function startRender(env: Env, article: ArticleRow, voice: string | null, caller: Caller): Promise<JobRow> {
  const fields = { articleId: article.id, text: null, voice: voice ?? article.voice, priority: "high" as const, requestId: caller.requestId };
  if (caller.paid || caller.listenerId === null) return createJob(env, { ...fields, listenerId: null });
  const db = database(env);
  const listener = await db.query.listeners.findFirst({ where: eq(listeners.id, caller.listenerId) });
  if (!listener) throw new ApiError("not_found", "the listener this token acts for is gone");
  checkRenderVoice(listener, article.voice, voice ?? undefined);
  const job = newJobRow({ ...fields, listenerId: listener.id });
  await takeRenderSlot(env, listener, job.id);
  try {
    // And the caller's address spends render-now's hourly budget, counted, as there, only for a start the gate let through.
    await enforceAddressLimit(env, caller.address ?? NO_ADDRESS, "renders");
    const [row] = await db.insert(renderJobs).values(job).returning();
    await enqueueJob(env, db, row.id);
    return row;
  } catch (err) {
    await env.RENDER_GATE.getByName(String(listener.id)).withdraw(job.id);
    throw err;
  }
}

export const get_audio_url = defineTool({
  name: "get_audio_url",
  title: "Get an article's audio URL",
  description:
    "A playable MP3 URL of an article's narration. When no audio exists yet it is rendered on demand: the call waits up to " +
    "20 seconds (AGENT_AUDIO_WAIT_SECONDS), then answers state pending with a poll_url. REST callers may pick a voice " +
    "(GET /v1/agent/articles/{slug}/audio?voice=<id from GET /v1/voices>). Paid (x402), cheaper when the audio is already " +
    "rendered; free with an OAuth token holding articles:read, whose renders spend the listener's render-now budget and the address's hourly one " +
    "(429 when spent; a voice that costs money needs a plus or pro plan). Listeners on the free plan hear a short sponsor message first.",
  input: Input,
  output: Output,
  scope: "articles:read",
  budgetCost: 1,
  // Not read-only: a first call starts a render. Idempotent: repeats return the same audio.
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  /**
   * A paid call is priced by whether the audio it would answer already exists (x402/prices.ts), and
   * pays the article's publisher. The lookup is `run`'s first step, so run takes it as found: the
   * paying caller sees what the quoting one saw (a payment changes the wallet, not the listener).
   */
  pendingJobOf: (value) => (value.state === "pending" ? value.job_id : null),
  async quote(input: AudioInput, caller, env) {
    const plan = await locate(database(env), input, caller);
    return { state: { cached: hasAudio(plan.found) }, publishers: [plan.article.publisher], plan };
  },
  async run(input: AudioInput, caller, env, plan?: AudioPlan) {
    const db = database(env);
    const { article, voice, found } = plan ?? (await locate(db, input, caller));
    if (hasAudio(found)) return ready(env, article, found, true, caller);
    // Quoted uncached, a render may have finished while the payment settled: looked for once more
    // rather than rendered twice (audio, once there, stays: x402/prices.ts acceptedAmounts).
    const since = plan ? await existing(db, article, voice) : undefined;
    if (hasAudio(since)) return ready(env, article, since, true, caller);

    const job = (await inFlightJobInVoice(db, article.id, voice ?? article.voice)) ?? (await startRender(env, article, voice, caller));
    const waitMs = (input.waitSeconds ?? config(env).AGENT_AUDIO_WAIT_SECONDS) * 1000;
    return audioOfJob(env, article, (await awaitJob(db, job.id, waitMs)) ?? job, caller);
  },
});
