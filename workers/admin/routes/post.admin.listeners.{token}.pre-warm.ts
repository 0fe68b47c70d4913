import { eq } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database, listeners, renderJobs } from "../../db/index";
import { requireListener } from "../../kernel/listener-tokens";
import { articlesWithStatus, ofListener } from "../../listeners/listener-articles";
import { TokenParams } from "../../kernel/fields";
import { enqueueJob, newJobRow } from "../../narration/jobs-service";

/** Recent articles looked at to find `count` that still need audio. */
const CANDIDATES = 50;

const PreWarmRequest = named(
  "PreWarmRequest",
  v.object({
    count: v.pipe(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10)), 5), v.description("How many articles to pre-render, 1 to 10.")),
    force: v.pipe(v.optional(v.boolean(), false), v.description("Pre-render even when first_render_done_at is set.")),
  }),
);

const PreWarmResponse = named(
  "PreWarmResponse",
  v.object({
    skipped: v.pipe(v.boolean(), v.description("True when the listener already had a first render and force was false.")),
    queued: v.array(v.object({ slug: v.string(), job_id: v.string() })),
    already_ready: v.pipe(v.number(), v.description("Articles among the listener's newest 50 whose audio is ready, queued or rendering.")),
    first_render_done_at: v.nullable(v.string()),
  }),
);

export const preWarmListener = route({
  method: "POST",
  path: "/v1/admin/listeners/:token/pre-warm",
  tag: "admin",
  summary: "Pre-render the newest articles of a listener's verticals that have no audio yet",
  auth: "admin",
  params: TokenParams,
  body: v.optional(PreWarmRequest, {}),
  responses: {
    200: { description: "What was queued", schema: PreWarmResponse },
    404: { description: "Unknown listener token" },
  },
  async handle({ env, params, body, requestId }) {
    const db = database(env);
    const listener = await requireListener(db, params.token);
    const { count, force } = body;
    const done = listener.firstRenderDoneAt;
    if (done && !force) {
      return Response.json({ skipped: true, queued: [], already_ready: 0, first_render_done_at: done.toISOString() });
    }
    const recent = await articlesWithStatus(db, listener.id, ofListener(listener), CANDIDATES);
    // Ready, queued or running audio needs nothing; failed or never-rendered articles get a job. A stub's
    // narration is not the listener's to hear, so warming it for them would be work for nobody.
    const needed = recent.filter((a) => a.hearable && !a.audioReady && (a.jobState === null || a.jobState === "failed" || a.jobState === "cancelled"));
    const jobs = needed.slice(0, count).map((a) => ({
      slug: a.slug,
      // No listenerId: pre-warm jobs must not take the listener's render-now in-flight slots. The render
      // consumer sets first_render_done_at through warmListenerId when the first of them is done.
      row: newJobRow({ articleId: a.id, listenerId: null, warmListenerId: listener.id, priority: "normal", requestId }),
    }));
    const [first, ...rest] = jobs.map(({ row }) => db.insert(renderJobs).values(row));
    // All rows or none; a message lost after that is resent by the stale-job sweep.
    if (first) await db.batch([first, ...rest]);
    for (const { row } of jobs) await enqueueJob(env, db, row.id);
    const queued = jobs.map(({ slug, row }) => ({ slug, job_id: row.id }));
    // Audio that already exists among the listener's newest articles is a first render done.
    const firstRender = done ?? (recent.some((a) => a.audioReady) ? new Date() : null);
    if (firstRender && !done) await db.update(listeners).set({ firstRenderDoneAt: firstRender }).where(eq(listeners.id, listener.id));
    return Response.json({
      skipped: false,
      queued,
      already_ready: recent.filter((a) => a.hearable).length - needed.length,
      first_render_done_at: firstRender?.toISOString() ?? null,
    });
  },
});
