import { and, desc, eq, gt, lte } from "drizzle-orm";
import { ProtocolError, ProtocolErrorCode, type Task } from "@modelcontextprotocol/server";
import { articles, database, isActiveJob, mcpTasks, renderJobs, type JobRow } from "../db";
import { config } from "../core/config";
import { awaitJob } from "./audio-jobs";
import type { Caller } from "./caller";
import { audioOfJob } from "./tools/get_audio_url";

/**
 * get_audio_url as an MCP task (MCP 2025-11-25, "Tasks"; docs/agents/tasks.md "Long renders as tasks"). The
 * task's work is the render job the call started or joined, so its state is the job's state; a row of
 * mcp_tasks ties the random taskId to the job and to who may see it. Written here because
 * @modelcontextprotocol/server 2.4 ships the tasks wire types with no server runtime (its schemas say
 * "no SDK runtime"), and a stateless server needs the task in storage anyway.
 */

type TaskRow = typeof mcpTasks.$inferSelect;

/** How long a task and its result are kept: an hour, or less if the client asks (the task's `ttl`). */
const TASK_TTL_MS = 3_600_000;
/** How often a client should poll tasks/get: a render of an article takes seconds. */
const POLL_INTERVAL_MS = 2_000;

/**
 * The authorization context a task is bound to ("Security Considerations": a task is only seen from the
 * context that created it): an OAuth token's client and listener; null for a caller without a token,
 * whose unguessable taskId (122 random bits) is then all that opens it, and which tasks/list never shows.
 */
export function taskOwner(caller: Caller): string | null {
  return caller.agentKey.startsWith("oauth:") ? `${caller.agentKey}:${caller.listenerId}` : null;
}

/** The task's status, from the row and the job that does its work. */
function statusOf(row: TaskRow, job: JobRow | undefined): Pick<Task, "status" | "statusMessage"> {
  if (row.cancelledAt) return { status: "cancelled", statusMessage: "cancelled by the client; the render itself goes on" };
  if (!job) return { status: "failed", statusMessage: "the render job is gone" };
  if (job.state === "done") return { status: "completed" };
  if (isActiveJob(job.state)) return { status: "working", statusMessage: job.state === "queued" ? "render queued" : "rendering" };
  return { status: "failed", statusMessage: `the render ${job.state}: ${job.error ?? "no reason recorded"}` };
}

/** The wire form of a task (MCP "Task"). */
function taskOf(row: TaskRow, job: JobRow | undefined): Task {
  const times = [row.createdAt, job?.startedAt, job?.finishedAt, row.cancelledAt].filter((t): t is Date => !!t && t >= row.createdAt);
  const last = new Date(Math.max(...times.map((t) => t.getTime())));
  return {
    taskId: row.id,
    ...statusOf(row, job),
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: last.toISOString(),
    ttl: row.expiresAt.getTime() - row.createdAt.getTime(),
    pollInterval: POLL_INTERVAL_MS,
  };
}

const jobOf = (env: Env, row: TaskRow) => database(env).query.renderJobs.findFirst({ where: eq(renderJobs.id, row.jobId) });

/**
 * Records a task for the render `jobId` of `slug`, asked for by `caller` (as the route resolved it) and
 * answered for `audience` (the caller the audio was made for: its listener and whether it paid).
 * `ttl`: what the client asked for, in ms, kept within the hour.
 */
export async function createRenderTask(
  env: Env,
  caller: Caller,
  audience: { listenerId: number | null; paid: boolean },
  slug: string,
  jobId: string,
  ttl: number | undefined,
): Promise<Task> {
  const kept = Math.min(TASK_TTL_MS, Math.max(POLL_INTERVAL_MS, ttl ?? TASK_TTL_MS));
  const createdAt = new Date();
  const db = database(env);
  // Expired tasks go as new ones come: once expired a task is unknown (visibleTask), so the table holds about an hour's.
  const [, [row]] = await db.batch([
    db.delete(mcpTasks).where(lte(mcpTasks.expiresAt, createdAt)),
    db
      .insert(mcpTasks)
      .values({ id: crypto.randomUUID(), jobId, owner: taskOwner(caller), slug, ...audience, createdAt, expiresAt: new Date(createdAt.getTime() + kept) })
      .returning(),
  ]);
  return taskOf(row, await jobOf(env, row));
}

/**
 * The task `taskId` as `caller` may see it. Unknown, expired and other contexts' tasks are one and the same
 * answer, Invalid params (-32602, as the spec answers a taskId it does not know), so a guess learns nothing.
 */
async function visibleTask(env: Env, caller: Caller, taskId: unknown): Promise<TaskRow> {
  const row = typeof taskId === "string" ? await database(env).query.mcpTasks.findFirst({ where: eq(mcpTasks.id, taskId) }) : undefined;
  if (!row || row.owner !== taskOwner(caller) || row.expiresAt.getTime() <= Date.now()) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no task ${String(taskId)}`);
  }
  return row;
}

/** tasks/get. */
export async function getRenderTask(env: Env, caller: Caller, taskId: unknown): Promise<Task> {
  const row = await visibleTask(env, caller, taskId);
  return taskOf(row, await jobOf(env, row));
}

/**
 * tasks/list: the caller's own tasks, newest first, each with its job's state, read in one query (a task
 * whose job is gone reads as failed); none for a caller without a token (see taskOwner).
 */
export async function listRenderTasks(env: Env, caller: Caller): Promise<Task[]> {
  const owner = taskOwner(caller);
  if (owner === null) return [];
  const rows = await database(env)
    .select({ task: mcpTasks, job: renderJobs })
    .from(mcpTasks)
    .leftJoin(renderJobs, eq(renderJobs.id, mcpTasks.jobId))
    .where(and(eq(mcpTasks.owner, owner), gt(mcpTasks.expiresAt, new Date())))
    .orderBy(desc(mcpTasks.createdAt))
    .limit(LIST_LIMIT);
  return rows.map(({ task, job }) => taskOf(task, job ?? undefined));
}

/** The most tasks tasks/list answers: an hour's tasks of one token (TASK_TTL_MS). */
const LIST_LIMIT = 100;

/**
 * tasks/cancel: the task stops being tracked (cancelled, for good). The render goes on: another caller may
 * be waiting on the same job, and its audio stays for the next call. A task already finished cannot be
 * cancelled (-32602).
 */
export async function cancelRenderTask(env: Env, caller: Caller, taskId: unknown): Promise<Task> {
  const row = await visibleTask(env, caller, taskId);
  const task = taskOf(row, await jobOf(env, row));
  if (task.status !== "working") throw new ProtocolError(ProtocolErrorCode.InvalidParams, `task ${row.id} is already ${task.status}`);
  const [cancelled] = await database(env).update(mcpTasks).set({ cancelledAt: new Date() }).where(eq(mcpTasks.id, row.id)).returning();
  return taskOf(cancelled, await jobOf(env, cancelled));
}

/**
 * tasks/result: waits while the render runs, then answers what the call would have: the audio for the
 * task's caller, or the render's failure (thrown as get_audio_url throws it). The spec has the answer wait for
 * a terminal status; here it waits as long as a call of get_audio_url does (AGENT_AUDIO_WAIT_SECONDS) and then
 * answers as that call would, pending with its poll_url (issue 40 item 5: a request held open for the task's
 * hour was a connection anyone could keep busy). Nothing is charged: the call that created the task was the
 * paid one.
 */
export async function renderTaskResult(env: Env, caller: Caller, taskId: unknown): Promise<Record<string, unknown>> {
  const row = await visibleTask(env, caller, taskId);
  if (row.cancelledAt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `task ${row.id} was cancelled`);
  const waitMs = Math.min(config(env).AGENT_AUDIO_WAIT_SECONDS * 1000, row.expiresAt.getTime() - Date.now());
  const job = await awaitJob(database(env), row.jobId, waitMs);
  if (!job) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `task ${row.id} failed: the render job is gone`);
  const audience: Caller = { agentKey: row.owner ?? "task", listenerId: row.listenerId, scopes: [], paid: row.paid, requestId: caller.requestId };
  const cached = !!job.finishedAt && job.finishedAt < row.createdAt;
  // The article's visibility decides whether its audio URL is a capability; a vanished article's audio is nobody's to list.
  const article =
    job.articleId === null ? undefined : await database(env).query.articles.findFirst({ columns: { visibility: true }, where: eq(articles.id, job.articleId) });
  return audioOfJob(env, { slug: row.slug, visibility: article?.visibility ?? "listener_private" }, job, audience, cached);
}
