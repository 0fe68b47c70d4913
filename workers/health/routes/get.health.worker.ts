import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { ACTIVE_JOB_STATES, audioObjects, database, renderJobs } from "../../db/index";

/** docs/rules.md "Rules" 8: the worker health window. */
export const HEALTH_WINDOW_MS = 10 * 60_000;

const WorkerHealth = named(
  "WorkerHealth",
  v.object({
    healthy: v.pipe(v.boolean(), v.description("True when a render succeeded in the last 10 minutes or the active queue is empty.")),
    diagnosis: v.pipe(v.string(), v.description("Why, in words.")),
    active_queue: v.pipe(v.number(), v.description("Render jobs queued or running (in D1).")),
    last_render_at: v.pipe(v.nullable(v.string()), v.description("When the latest render succeeded (job done or audio stored).")),
  }),
);

/** The latest successful render: a job finishing, or a synchronous render storing new audio. */
async function lastRender(env: Pick<Env, "DB">): Promise<number | null> {
  const db = database(env);
  const [job, audio] = await Promise.all([
    db
      .select({ at: renderJobs.finishedAt })
      .from(renderJobs)
      .where(and(eq(renderJobs.state, "done"), isNotNull(renderJobs.finishedAt)))
      .orderBy(desc(renderJobs.finishedAt))
      .limit(1),
    // rowid follows insertion, so this reads one row where max(created_at) would scan the table.
    db.select({ at: audioObjects.createdAt }).from(audioObjects).orderBy(sql`rowid DESC`).limit(1),
  ]);
  const times = [job[0]?.at, audio[0]?.at].filter((d): d is Date => d instanceof Date).map((d) => d.getTime());
  return times.length ? Math.max(...times) : null;
}

export const getWorkerHealth = route({
  method: "GET",
  path: "/v1/health/worker",
  tag: "health",
  summary: "Render worker health: recent success or an empty queue",
  description:
    "Always 200. healthy is true when a render succeeded in the last 10 minutes or the active queue (render jobs " +
    "queued or running in D1) is zero; otherwise false with a diagnosis.",
  auth: "none",
  responses: { 200: { description: "The render worker's health", schema: WorkerHealth } },
  async handle({ env }) {
    const db = database(env);
    const [[{ n: active }], last] = await Promise.all([
      db.select({ n: sql<number>`count(*)` }).from(renderJobs).where(inArray(renderJobs.state, ACTIVE_JOB_STATES)),
      lastRender(env),
    ]);
    const now = Date.now();
    const recent = last !== null && now - last <= HEALTH_WINDOW_MS;
    const diagnosis = recent
      ? `a render succeeded ${Math.round((now - last) / 1000)} s ago`
      : active === 0
        ? "idle: no render jobs queued or running"
        : `${active} render job(s) queued or running and no render succeeded in the last 10 minutes`;
    const body: v.InferOutput<typeof WorkerHealth> = {
      healthy: recent || active === 0,
      diagnosis,
      active_queue: active,
      last_render_at: last === null ? null : new Date(last).toISOString(),
    };
    return Response.json(body, { headers: { "Cache-Control": "no-store" } });
  },
});
