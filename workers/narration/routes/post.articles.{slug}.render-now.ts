import * as v from "valibot";
import { baseUrl, config } from "../../core/config";
import { ApiError } from "../../core/errors";
import { enforceRateLimit, RENDERS_PER_HOUR_PER_ADDRESS } from "../../core/rate-limit";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database, type JobRow, renderJobs } from "../../db/index";
import { listenerByToken } from "../../kernel/listener-tokens";
import { articleFor, audioState, inFlightJobOf } from "../article-audio-service";
import { ArticleAudio, articleAudio } from "../article-audio-view";
import { VoiceField } from "../fields";
import { enqueueJob, newJobRow } from "../jobs-service";
import {
  checkRenderVoice,
  dailyRenderBudget,
  RENDER_SLOT_LEASE_MS,
  FIRST_DAY_RENDERS,
  FREE_VOICES,
  MAX_RENDERS_PER_DAY,
  RENDERS_GAINED_PER_DAY,
} from "../render-now-policy";

/** Renders finish in seconds; the lease only bounds a crash, so Retry-After suggests at most this. */
const MAX_RETRY_AFTER_SECONDS = 15;
/**
 * How long a request waits for the concurrent request holding its article's slot to write the job
 * row (an address budget check and one insert: milliseconds), in steps, before answering 503.
 */
const ADMISSION_WAIT_MS = 20;
const ADMISSION_WAITS = 100;

const RenderNowRequest = named(
  "RenderNowRequest",
  v.object({
    listener_token: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("The listener's account token.")),
    voice: v.optional(VoiceField),
  }),
);

const SlugParam = v.object({ slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Article slug.")) });

/** Where render-now points the client to poll (docs/rules.md "Rules" 3). */
function pollPath(slug: string): string {
  return `/v1/articles/${encodeURIComponent(slug)}/audio`;
}

export const postRenderNow = route({
  method: "POST",
  path: "/v1/articles/:slug/render-now",
  tag: "narration",
  summary: "Render an article for a listener now (priority high), capped per listener",
  description:
    "200 with the audio URLs when a done render exists (no new job). Otherwise a priority-high job and 202 " +
    "with Location: /v1/articles/{slug}/audio (the polling path); a repeat while that listener's job for the " +
    "article is still in flight answers 202 with the same job, and every 202 names a job that holds one of the listener's slots. " +
    "Each render costs the operator money, so a new one is bounded four ways (issue 29): " +
    `429 with Retry-After (at most ${MAX_RETRY_AFTER_SECONDS} s) when the listener already has MAX_IN_FLIGHT_RENDERS_PER_LISTENER (default 3) renders queued or running; ` +
    `429 with Retry-After (when the oldest counted render leaves the window) when the listener started their daily budget of renders in the last 24 hours: ` +
    `${FIRST_DAY_RENDERS} on the day they subscribed, ${RENDERS_GAINED_PER_DAY} more for each whole day of the account's age, at most ${MAX_RENDERS_PER_DAY} ` +
    `(plus and pro listeners: ${MAX_RENDERS_PER_DAY} from the first day); ` +
    `429 with Retry-After when the caller's address started ${RENDERS_PER_HOUR_PER_ADDRESS} renders in the last hour; ` +
    `and voice: the article's own voice (the default) or a voice of the free engine (${FREE_VOICES.join(", ")}), any voice of GET /v1/voices for plus and pro listeners ` +
    "(403 otherwise; 422 for a voice not in the catalogue). " +
    "Unknown listener token or article, another listener's private article or a publisher_only stub: 404.",
  auth: "none",
  params: SlugParam,
  body: RenderNowRequest,
  responses: {
    200: { description: "The audio is ready", schema: ArticleAudio },
    202: { description: "Rendering; poll the Location", schema: ArticleAudio, headers: { Location: "/v1/articles/{slug}/audio" } },
    403: { description: "A voice that costs money, for a listener on the free plan" },
    404: { description: "Unknown listener token or article, or an article whose narration is not the listener's (a stub)" },
    429: { description: "The listener's in-flight cap or daily budget, or the address's hourly budget, is spent", headers: { "Retry-After": "seconds" } },
    503: {
      description: "The render Queue is unavailable, or a concurrent render of the article is starting or just ended",
      headers: { "Retry-After": "seconds" },
    },
  },
  async handle({ env, params, body, request, requestId }) {
    const db = database(env);
    const listener = await listenerByToken(db, body.listener_token);
    if (!listener) throw new ApiError("not_found", "unknown listener token");
    const article = await articleFor(db, params.slug, listener.id);
    if (!article) throw new ApiError("not_found", "no article with that slug");

    checkRenderVoice(listener, article.voice, body.voice);

    const state = await audioState(env, db, article);
    if (state.state === "done") return Response.json(state);
    const location = `${baseUrl(env)}${pollPath(article.slug)}`;
    const accepted = (job: JobRow) => Response.json(articleAudio(env, article, undefined, job, null), { status: 202, headers: { Location: location } });

    const pending = await inFlightJobOf(db, article.id, listener.id);
    if (pending) return accepted(pending);

    const job = newJobRow({ articleId: article.id, listenerId: listener.id, text: null, voice: body.voice ?? article.voice, priority: "high", requestId });
    const gate = env.RENDER_GATE.getByName(String(listener.id));
    const budget = dailyRenderBudget(listener);
    // The slot is taken before the job row is written, so every row a request can find and join
    // holds a slot: a refused request leaves nothing behind that another one could have joined
    // (issue 29, item 6). The gate serialises acquisitions, so concurrent requests never exceed the
    // cap or the budget, and grants an article's slot to one request at a time: concurrent first
    // requests for one article join the job of the one it went to.
    for (let wait = 0; ; wait++) {
      const slot = await gate.acquire(job.id, config(env).MAX_IN_FLIGHT_RENDERS_PER_LISTENER, RENDER_SLOT_LEASE_MS, {
        perDay: budget,
        article: String(article.id),
      });
      if (slot.ok) break;
      const started = await inFlightJobOf(db, article.id, listener.id);
      if (started) return accepted(started);
      if (slot.reason === "daily") {
        throw new ApiError("rate_limited", `this listener's ${budget} renders of the last 24 hours are spent`, { "Retry-After": String(slot.retryAfter) });
      }
      if (slot.reason === "in_flight") {
        throw new ApiError("rate_limited", "too many renders in flight for this listener", {
          "Retry-After": String(Math.min(slot.retryAfter, MAX_RETRY_AFTER_SECONDS)),
        });
      }
      // The holder is writing its job row now, or gives its slot back on failure: ask again shortly.
      if (wait === ADMISSION_WAITS) throw new ApiError("unavailable", "another render of this article is being started; try again", { "Retry-After": "1" });
      await scheduler.wait(ADMISSION_WAIT_MS);
    }
    try {
      // The address's budget counts only renders the gate let start; a start refused here is withdrawn.
      await enforceRateLimit(env, request, "renders");
      // A job whose lease ran out while it stayed queued still holds the unique index on in-flight
      // jobs per listener and article: then this request joins it.
      const [row] = await db.insert(renderJobs).values(job).onConflictDoNothing().returning();
      if (!row) {
        await gate.withdraw(job.id);
        const winner = await inFlightJobOf(db, article.id, listener.id);
        if (winner) return accepted(winner);
        // That job finished between the insert and this read: its audio, or no job that will run.
        const now = await audioState(env, db, article);
        if (now.state === "done") return Response.json(now);
        throw new ApiError("unavailable", "a render of this article just ended; try again", { "Retry-After": "1" });
      }
      await enqueueJob(env, db, row.id);
      return accepted(row);
    } catch (err) {
      // Refused by the address's budget, or the Queue refused the job (then marked failed): it never ran.
      await gate.withdraw(job.id);
      throw err;
    }
  },
});
