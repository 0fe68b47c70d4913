import * as v from "valibot";
import { baseUrl, config } from "../../core/config";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database, renderJobs } from "../../db/index";
import { listenerByToken } from "../../kernel/listener-tokens";
import { articleFor, audioState, inFlightJobOf } from "../article-audio-service";
import { ArticleAudio, articleAudio } from "../article-audio-view";
import { VoiceField } from "../fields";
import { enqueueJob, newJobRow } from "../jobs-service";

/**
 * A slot is a lease: long enough for a render with its Queue retries, short enough that a
 * render which never reports back frees its slot.
 */
export const RENDER_SLOT_LEASE_MS = 30 * 60_000;
/** Renders finish in seconds; the lease only bounds a crash, so Retry-After suggests at most this. */
const MAX_RETRY_AFTER_SECONDS = 15;

const RenderNowRequest = named(
  "RenderNowRequest",
  v.object({
    listener_token: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("The listener's account token.")),
    voice: v.optional(VoiceField),
  }),
);

const SlugParam = v.object({ slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Article slug.")) });

/** Where render-now points the client to poll (README "Rules" 3). */
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
    "article is still in flight answers 202 with the same job. 429 with Retry-After when the listener already " +
    "has MAX_IN_FLIGHT_RENDERS_PER_LISTENER renders queued or running. Unknown listener token or article, another listener's private article or a publisher_only stub: 404.",
  auth: "none",
  params: SlugParam,
  body: RenderNowRequest,
  responses: {
    200: { description: "The audio is ready", schema: ArticleAudio },
    202: { description: "Rendering; poll the Location", schema: ArticleAudio, headers: { Location: "/v1/articles/{slug}/audio" } },
    404: { description: "Unknown listener token or article, or an article whose narration is not the listener's (a stub)" },
    429: { description: "The listener's in-flight cap is reached", headers: { "Retry-After": "seconds" } },
  },
  async handle({ env, params, body }) {
    const db = database(env);
    const listener = await listenerByToken(db, body.listener_token);
    if (!listener) throw new ApiError("not_found", "unknown listener token");
    const article = await articleFor(db, params.slug, listener.id);
    if (!article) throw new ApiError("not_found", "no article with that slug");

    const state = await audioState(env, db, article);
    if (state.state === "done") return Response.json(state);
    const location = `${baseUrl(env)}${pollPath(article.slug)}`;
    const accepted = (job: typeof renderJobs.$inferSelect) =>
      Response.json(articleAudio(env, article, undefined, job, null), { status: 202, headers: { Location: location } });

    const pending = await inFlightJobOf(db, article.id, listener.id);
    if (pending) return accepted(pending);

    // The slot is taken before the job row is written, so every row a request can find and join
    // holds a slot: a refused request leaves nothing behind that another one could have joined
    // (issue 29, item 6). The Durable Object serialises acquisitions, so concurrent requests never
    // exceed the cap.
    const job = newJobRow({ articleId: article.id, listenerId: listener.id, text: null, voice: body.voice ?? article.voice, priority: "high" });
    const gate = env.RENDER_GATE.getByName(String(listener.id));
    const slot = await gate.acquire(job.id, config(env).MAX_IN_FLIGHT_RENDERS_PER_LISTENER, RENDER_SLOT_LEASE_MS);
    if (!slot.ok) {
      // A concurrent request for the same article may have started its job meanwhile: join it.
      const started = await inFlightJobOf(db, article.id, listener.id);
      if (started) return accepted(started);
      throw new ApiError("rate_limited", "too many renders in flight for this listener", {
        "Retry-After": String(Math.min(slot.retryAfter, MAX_RETRY_AFTER_SECONDS)),
      });
    }
    try {
      // Concurrent first requests for one article all get here; the unique index on in-flight jobs
      // per listener and article lets exactly one insert through, and the others join that job.
      const [row] = await db.insert(renderJobs).values(job).onConflictDoNothing().returning();
      if (!row) {
        await gate.release(job.id);
        const winner = await inFlightJobOf(db, article.id, listener.id);
        if (winner) return accepted(winner);
        // The winner finished between its insert and this read: answer as the polling path would.
        const now = await audioState(env, db, article);
        return now.state === "done" ? Response.json(now) : Response.json(now, { status: 202, headers: { Location: location } });
      }
      await enqueueJob(env, db, row.id);
      return accepted(row);
    } catch (err) {
      await gate.release(job.id);
      throw err;
    }
  },
});
