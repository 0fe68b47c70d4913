import { and, desc, eq, gt, sql } from "drizzle-orm";
import { loggableError } from "../core/errors";
import { database, renderJobs } from "../db/index";
import { type RenderErrorCode, renderErrorCode, renderService } from "../kernel/render-contract";
import { HEALTH_WINDOW_MS } from "./routes/get.health.worker";

/** How long one isolate reuses its answer: GET /v1/health is polled often and must stay cheap. */
const FRESH_MS = 5_000;
/**
 * How long a ping may wait. A render Worker busy synthesising answers late (one isolate runs one
 * thing at a time), so a late answer is not a failure; only an error is (locally, its process gone).
 */
const PING_WAIT_MS = 10_000;

let known: { at: number; reasons: string[] } | null = null;
let refreshing = false;

/**
 * Why narration is degraded, in words (empty when it is not): render jobs that failed within the
 * health window, or a render Worker that cannot be reached. An answer younger than FRESH_MS is reused;
 * an older one is still answered while a new one is worked out in the background, so a health check
 * never waits for a busy render Worker. Only the isolate's first call waits.
 */
export async function narrationProblems(env: Pick<Env, "DB">, ctx: ExecutionContext): Promise<string[]> {
  const now = Date.now();
  if (!known) return refresh(env, now);
  if (now - known.at >= FRESH_MS && !refreshing) ctx.waitUntil(refresh(env, now).catch(() => undefined));
  return known.reasons;
}

/** Forgets the answer (tests, which change the state between calls). */
export function forgetNarrationProblems(): void {
  known = null;
}

async function refresh(env: Pick<Env, "DB">, now: number): Promise<string[]> {
  refreshing = true;
  try {
    const found = await Promise.all([failedRecently(env, now), unreachableRenderWorker(env)]);
    const reasons = found.filter((r): r is string => r !== null);
    known = { at: now, reasons };
    return reasons;
  } finally {
    refreshing = false;
  }
}

async function failedRecently(env: Pick<Env, "DB">, now: number): Promise<string | null> {
  const recent = and(eq(renderJobs.state, "failed"), gt(renderJobs.finishedAt, new Date(now - HEALTH_WINDOW_MS)));
  const db = database(env);
  const [[{ n }], [last]] = await Promise.all([
    db.select({ n: sql<number>`count(*)` }).from(renderJobs).where(recent),
    db.select({ error: renderJobs.error }).from(renderJobs).where(recent).orderBy(desc(renderJobs.finishedAt)).limit(1),
  ]);
  return n === 0 ? null : `${n} render job(s) failed in the last 10 minutes; the latest: ${inOwnWords(last?.error ?? null)}`;
}

/**
 * Why a job failed, in the service's own words. A job's error can carry what its caller sent (the
 * voice asked for, a provider's answer about the text), and health is public, so it shows only the
 * kind of failure (issue 40 item 4); the job view and the log keep the rest.
 */
const OWN_WORDS: Record<RenderErrorCode, string> = {
  unknown_voice: "a voice outside the catalogue was asked for",
  too_long: "a text longer than one render narrates",
  no_provider: "no text-to-speech provider could voice it",
};

function inOwnWords(error: string | null): string {
  if (error === null) return "no error recorded";
  const code = renderErrorCode(new Error(error));
  if (code) return OWN_WORDS[code];
  return error.startsWith("enqueue failed") ? "the render queue did not take it" : "an unexpected error (see the render Worker's log)";
}

async function unreachableRenderWorker(env: object): Promise<string | null> {
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), PING_WAIT_MS));
  const answer = (async () => {
    await renderService(env).ping();
    return null;
  })().catch((err: unknown) => {
    // Health is public: the error's text (hosts, addresses, the runtime's words) goes to the log only.
    console.warn(`health: the render Worker does not answer: ${loggableError(err)}`);
    return "the render Worker does not answer";
  });
  return Promise.race([answer, late]);
}
