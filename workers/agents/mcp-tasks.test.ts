import { env } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import type { PaymentRequired } from "@x402/core/types";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { audioAsTask, getTask, mcpClient, readerClient, readerHeaders, TaskSchema, taskResult, taskSession } from "../../test/support/mcp-client";
import { recorded, walletAgent } from "../../test/support/x402";
import { testVars } from "../../test/vars";
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from "./x402/mcp-transport";

/**
 * get_audio_url as an MCP task (MCP 2025-11-25 "Tasks"; docs/agents/tasks.md "Long renders as tasks"), through the official
 * SDK client: the call answers at once with a task, tasks/get follows the render job, tasks/result gives the audio
 * without a second charge, and a task is seen only from the authorization context that created it. The render queue
 * is not consumed in this project: a test finishes the job in D1 as the render Worker would.
 */

const Created = v.looseObject({ task: TaskSchema, structuredContent: v.optional(v.record(v.string(), v.unknown())) });
const Listed = v.looseObject({ tasks: v.array(TaskSchema) });

const cancelTask = (client: Client, taskId: string) => client.request({ method: "tasks/cancel", params: { taskId } }, TaskSchema);
const listTasks = (client: Client) => client.request({ method: "tasks/list", params: {} }, Listed);

/** The JSON-RPC error code a request failed with. */
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (err: { code?: number }) => err.code,
  );

/** Finishes render job `jobId` as the render Worker does: done, with its audio stored. */
async function finish(jobId: string): Promise<string> {
  const key = crypto.randomUUID().replaceAll("-", "").padEnd(64, "0");
  const now = Date.now();
  await env.DB.prepare("update render_jobs set state = 'done', audio_key = ?, started_at = ?, finished_at = ? where id = ?").bind(key, now, now, jobId).run();
  await env.DB.prepare("insert into audio_objects (key, provider, voice, duration_seconds) values (?, 'offline', 'en-us', 41.6)").bind(key).run();
  return key;
}

const jobOfTask = async (taskId: string) =>
  (await env.DB.prepare("select job_id from mcp_tasks where id = ?").bind(taskId).first<{ job_id: string }>())?.job_id;

describe("what the server advertises", () => {
  it("at 2025-11-25: tasks for tools/call, list and cancel, and get_audio_url as the one tool that may be a task", async () => {
    const client = await mcpClient();
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const execution = Object.fromEntries(tools.map((t) => [t.name, t.execution]));
    expect(execution).toMatchObject({ get_audio_url: { taskSupport: "optional" }, search_articles: undefined, digest: undefined });
    await client.close();
  });

  it("at 2026-07-28: the tasks extension instead (no tasks capability, no execution: the server decides)", async () => {
    const client = await mcpClient({ modern: true });
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    expect(client.getServerCapabilities()?.extensions).toMatchObject({ "io.modelcontextprotocol/tasks": {} });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "get_audio_url")?.execution).toBeUndefined();
    await client.close();
  });
});

describe("a token's task", () => {
  it("answers at once with a working task, follows the render, and gives the audio through tasks/result for free", async () => {
    const article = await addArticle({ title: "Tides under the ice" });
    const client = await readerClient("tasks-ada@example.test");
    const created = await audioAsTask(client, article.slug);
    const task = v.parse(Created, created).task;
    expect(task).toMatchObject({ status: "working", ttl: 600_000, pollInterval: 2000 });
    expect(created.structuredContent).toMatchObject({ state: "pending", poll_url: `${testVars.BASE_URL}/v1/articles/${article.slug}/audio` });
    const jobId = await jobOfTask(task.taskId);
    expect(jobId).toBe((created.structuredContent as { job_id: string }).job_id);
    expect(task.taskId).not.toBe(jobId);

    expect(await getTask(client, task.taskId)).toMatchObject({ taskId: task.taskId, status: "working", statusMessage: "render queued" });
    expect((await listTasks(client)).tasks.map((t) => t.taskId)).toEqual([task.taskId]);

    const key = await finish(jobId as string);
    expect(await getTask(client, task.taskId)).toMatchObject({ status: "completed" });
    const result = await taskResult(client, task.taskId);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      state: "ready",
      audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3`,
      listen_seconds: 42,
      sponsored: false,
      cached: false,
    });
    expect(result._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId: task.taskId } });
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
    await client.close();
  });

  it("is cancelled for the client while the render goes on, and a finished task cannot be cancelled", async () => {
    const article = await addArticle({ title: "Kelp forests at night" });
    const client = await readerClient("tasks-cancel@example.test");
    const { task } = v.parse(Created, await audioAsTask(client, article.slug));
    expect(await cancelTask(client, task.taskId)).toMatchObject({ status: "cancelled" });
    expect(await getTask(client, task.taskId)).toMatchObject({ status: "cancelled" });
    expect(await codeOf(cancelTask(client, task.taskId))).toBe(-32602);
    expect(await codeOf(taskResult(client, task.taskId))).toBe(-32602);
    const job = await env.DB.prepare("select state from render_jobs where id = ?")
      .bind(await jobOfTask(task.taskId))
      .first<{ state: string }>();
    expect(job?.state).toBe("queued");
    await client.close();
  });

  it("fails with the render, whose error tasks/result answers as the call would", async () => {
    const article = await addArticle({ title: "Peat bogs" });
    const client = await readerClient("tasks-failed@example.test");
    const { task } = v.parse(Created, await audioAsTask(client, article.slug));
    await env.DB.prepare("update render_jobs set state = 'failed', error = 'engine down', finished_at = ? where id = ?")
      .bind(Date.now(), await jobOfTask(task.taskId))
      .run();
    expect(await getTask(client, task.taskId)).toMatchObject({ status: "failed", statusMessage: "the render failed: engine down" });
    const result = await taskResult(client, task.taskId);
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { code: "unavailable" },
      _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } },
    });
    await client.close();
  });

  it("is unknown once expired, and its row goes when the next task is made", async () => {
    const client = await readerClient("tasks-expired@example.test");
    const { task } = v.parse(Created, await audioAsTask(client, (await addArticle({ title: "Dune grasses" })).slug));
    await env.DB.prepare("update mcp_tasks set expires_at = ? where id = ?")
      .bind(Date.now() - 1, task.taskId)
      .run();
    expect(await codeOf(getTask(client, task.taskId))).toBe(-32602);
    expect((await listTasks(client)).tasks).toEqual([]);
    await audioAsTask(client, (await addArticle({ title: "Sea stacks" })).slug);
    expect(await jobOfTask(task.taskId)).toBeUndefined();
    await client.close();
  });

  it("is nobody else's: another token, a caller without one, and a job id all get -32602, and list nothing", async () => {
    const article = await addArticle({ title: "Salt marsh carbon" });
    const owner = await readerClient("tasks-owner@example.test");
    const { task } = v.parse(Created, await audioAsTask(owner, article.slug));
    const jobId = (await jobOfTask(task.taskId)) as string;

    const other = await readerClient("tasks-mallory@example.test");
    const anonymous = await mcpClient({ ip: "198.51.100.23" });
    for (const intruder of [other, anonymous]) {
      expect(await codeOf(getTask(intruder, task.taskId))).toBe(-32602);
      expect(await codeOf(taskResult(intruder, task.taskId))).toBe(-32602);
      expect(await codeOf(cancelTask(intruder, task.taskId))).toBe(-32602);
      expect((await listTasks(intruder)).tasks).toEqual([]);
    }
    expect(await codeOf(getTask(owner, jobId))).toBe(-32602);
    expect(await getTask(owner, task.taskId)).toMatchObject({ status: "working" });
    for (const client of [owner, other, anonymous]) await client.close();
  });
});

describe("a paid task (x402, no token)", () => {
  it("is created only once paid, charges once, and its result is the bare audio without a second payment", async () => {
    const article = await addArticle({ title: "Glacier caves" });
    const { http } = walletAgent();
    const client = await mcpClient({ ip: "203.0.113.40" });

    const unpaid = await audioAsTask(client, article.slug);
    expect(unpaid).toMatchObject({ isError: true });
    expect(unpaid.task).toBeUndefined();
    expect(await env.DB.prepare("select count(*) as n from mcp_tasks where slug = ?").bind(article.slug).first("n")).toBe(0);

    const payload = await http.createPaymentPayload(unpaid.structuredContent as PaymentRequired);
    const paid = await audioAsTask(client, article.slug, { [MCP_PAYMENT_META]: payload });
    const { task } = v.parse(Created, paid);
    expect((paid as { _meta?: Record<string, unknown> })._meta?.[MCP_PAYMENT_RESPONSE_META]).toMatchObject({ success: true });
    expect(await recorded()).toMatchObject({ calls: 1, legs: 3 });

    // The id is the capability of a task made without a token: seen from another address, never from a token.
    const elsewhere = await mcpClient({ ip: "192.0.2.77" });
    expect(await getTask(elsewhere, task.taskId)).toMatchObject({ status: "working" });
    expect((await listTasks(elsewhere)).tasks).toEqual([]);
    const withToken = await readerClient("tasks-token@example.test");
    expect(await codeOf(getTask(withToken, task.taskId))).toBe(-32602);

    const key = await finish((await jobOfTask(task.taskId)) as string);
    const result = await taskResult(client, task.taskId);
    expect(result.structuredContent).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3`, sponsored: false });
    expect(result._meta?.[MCP_PAYMENT_RESPONSE_META]).toBeUndefined();
    expect(await taskResult(elsewhere, task.taskId)).toMatchObject({ structuredContent: { state: "ready" } });
    expect(await recorded()).toMatchObject({ calls: 1, legs: 3 });
    for (const c of [client, elsewhere, withToken]) await c.close();
  });
});

describe("a client that does not ask for a task", () => {
  it("gets today's answer: the call waits, then answers pending with the polling path", { timeout: 40_000 }, async () => {
    const article = await addArticle({ title: "Lichen on basalt" });
    const client = await readerClient("tasks-plain@example.test");
    const result = await client.callTool({ name: "get_audio_url", arguments: { slug: article.slug } });
    expect(result).not.toHaveProperty("task");
    expect(result.structuredContent).toMatchObject({ state: "pending", poll_url: `${testVars.BASE_URL}/v1/articles/${article.slug}/audio` });
    expect(await env.DB.prepare("select count(*) as n from mcp_tasks where slug = ?").bind(article.slug).first("n")).toBe(0);
    await client.close();
  });
});

describe("at 2026-07-28, the tasks extension through the official requester (@modelcontextprotocol/ext-tasks)", () => {
  type Dispatch = Awaited<ReturnType<typeof taskSession>>["rawDispatch"];
  /** A tasks/* request as the requester frames it (the extension declared in `_meta`), or without that declaration. */
  const tasksRequest = (dispatch: Dispatch, method: string, params: Record<string, unknown>, declared = true) =>
    dispatch({
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "narration-tests", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": declared ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {},
        },
      },
    });
  const codeOfAnswer = async (answer: ReturnType<Dispatch>) => {
    const got = await answer;
    return got.kind === "error" ? got.error.code : "answered";
  };

  it("makes a pending render a task, polls tasks/get until it completes, and gives the audio it carries, charged nothing", async () => {
    const article = await addArticle({ title: "Tidal bores" });
    const { client, session, rawDispatch } = await taskSession({ headers: await readerHeaders("ext-ada@example.test") });
    const execution = await session.callTool("get_audio_url", { slug: article.slug });
    expect(execution.kind).toBe("task");
    const taskId = execution.handle?.taskId as string;
    const jobId = (await jobOfTask(taskId)) as string;
    expect(taskId).not.toBe(jobId);
    const polled = await tasksRequest(rawDispatch, "tasks/get", { taskId });
    expect(polled).toMatchObject({
      kind: "result",
      result: { resultType: "complete", taskId, status: "working", statusMessage: "render queued", ttlMs: 3_600_000, pollIntervalMs: 2000 },
    });

    const key = await finish(jobId);
    const { outcome } = await execution.settle();
    const result = resultFromTaskOutcome(outcome) as { isError?: boolean; structuredContent?: unknown };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3`, listen_seconds: 42, sponsored: false });
    expect(await recorded()).toEqual({ calls: 0, legs: 0, nonces: 0 });
    await session.close();
    await client.close();
  });

  it("runs the call on the arguments of the tool's schema only: a voice or any other extra argument never reaches the render (issue 40 item 4)", async () => {
    const article = await addArticle({ title: "Sea smoke" });
    const { client, session } = await taskSession({ headers: await readerHeaders("ext-voice@example.test") });
    const scrawl = "Anyone can write here";
    const execution = await session.callTool("get_audio_url", { slug: article.slug, voice: scrawl, note: scrawl });
    expect(execution.kind).toBe("task");
    const job = await env.DB.prepare("select voice from render_jobs where id = ?")
      .bind(await jobOfTask(execution.handle?.taskId as string))
      .first<{ voice: string | null }>();
    // The article's own voice (none set: the default), never the caller's text.
    expect(job).toEqual({ voice: null });
    await session.close();
    await client.close();
  });

  it("answers at once, with no task, when the audio is already there", async () => {
    const article = await addArticle({ title: "Ice shelves" });
    const { client, session } = await taskSession({ headers: await readerHeaders("ext-ready@example.test") });
    const first = await session.callTool("get_audio_url", { slug: article.slug });
    await finish((await jobOfTask(first.handle?.taskId as string)) as string);
    await first.settle();
    const again = await session.callTool("get_audio_url", { slug: article.slug });
    expect(again.kind).toBe("immediate");
    expect(resultFromTaskOutcome((await again.settle()).outcome)).toMatchObject({ structuredContent: { state: "ready" } });
    await session.close();
    await client.close();
  });

  it("completes with the call's tool error when the render fails (a tool error is not a failed task)", async () => {
    const article = await addArticle({ title: "Mudflats" });
    const { client, session } = await taskSession({ headers: await readerHeaders("ext-failed@example.test") });
    const execution = await session.callTool("get_audio_url", { slug: article.slug });
    await env.DB.prepare("update render_jobs set state = 'failed', error = 'engine down', finished_at = ? where id = ?")
      .bind(Date.now(), await jobOfTask(execution.handle?.taskId as string))
      .run();
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    expect(resultFromTaskOutcome(outcome)).toMatchObject({ isError: true, structuredContent: { code: "unavailable" } });
    await session.close();
    await client.close();
  });

  it("acknowledges tasks/cancel and tasks/update; a cancelled task stays cancelled while the render goes on", async () => {
    const article = await addArticle({ title: "Reed beds" });
    const { client, session, rawDispatch } = await taskSession({ headers: await readerHeaders("ext-cancel@example.test") });
    const created = await tasksRequest(rawDispatch, "tools/call", { name: "get_audio_url", arguments: { slug: article.slug } });
    expect(created).toMatchObject({ kind: "result", result: { resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 2000 } });
    // The task's fields only, but for the empty `content` the SDK gives every tools/call answer (docs/agents.md).
    expect(created.kind === "result" && Object.keys(created.result as object).sort()).toEqual([
      "_meta",
      "content",
      "createdAt",
      "lastUpdatedAt",
      "pollIntervalMs",
      "resultType",
      "status",
      "statusMessage",
      "taskId",
      "ttlMs",
    ]);
    const execution = await session.callTool("get_audio_url", { slug: article.slug });
    const taskId = execution.handle?.taskId as string;
    expect(await tasksRequest(rawDispatch, "tasks/update", { taskId, inputResponses: {} })).toMatchObject({
      kind: "result",
      result: { resultType: "complete" },
    });
    await execution.cancel();
    expect(await tasksRequest(rawDispatch, "tasks/get", { taskId })).toMatchObject({ kind: "result", result: { status: "cancelled" } });
    expect(await tasksRequest(rawDispatch, "tasks/cancel", { taskId })).toMatchObject({ kind: "result", result: { resultType: "complete" } });
    const job = await env.DB.prepare("select state from render_jobs where id = ?")
      .bind(await jobOfTask(taskId))
      .first<{ state: string }>();
    expect(job?.state).toBe("queued");
    await session.close();
    await client.close();
  });

  it("is nobody else's: another token, a caller without one, and a job id get -32602; a request not declaring the extension -32021", async () => {
    const article = await addArticle({ title: "Brackish lagoons" });
    const owner = await taskSession({ headers: await readerHeaders("ext-owner@example.test") });
    const execution = await owner.session.callTool("get_audio_url", { slug: article.slug });
    const taskId = execution.handle?.taskId as string;
    const other = await taskSession({ headers: await readerHeaders("ext-mallory@example.test") });
    const anonymous = await taskSession({ ip: "198.51.100.24" });
    for (const intruder of [other, anonymous]) {
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        expect(await codeOfAnswer(tasksRequest(intruder.rawDispatch, method, { taskId, inputResponses: {} }))).toBe(-32602);
      }
    }
    expect(await codeOfAnswer(tasksRequest(owner.rawDispatch, "tasks/get", { taskId: await jobOfTask(taskId) }))).toBe(-32602);
    const undeclared = await tasksRequest(owner.rawDispatch, "tasks/get", { taskId }, false);
    expect(undeclared).toMatchObject({
      kind: "error",
      error: { code: -32021, data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } } },
    });
    expect(await tasksRequest(owner.rawDispatch, "tasks/get", { taskId })).toMatchObject({ kind: "result", result: { status: "working" } });
    for (const { session, client } of [owner, other, anonymous]) {
      await session.close();
      await client.close();
    }
  });

  it("a paid call (x402, no token) is a task only once paid, charged once, and its result is free", async () => {
    const article = await addArticle({ title: "Fjord sills" });
    const { http } = walletAgent();
    const { client, session } = await taskSession({ ip: "203.0.113.41" });
    const unpaid = await session.callTool("get_audio_url", { slug: article.slug });
    expect(unpaid.kind).toBe("immediate");
    const required = resultFromTaskOutcome((await unpaid.settle()).outcome) as { isError?: boolean; structuredContent: unknown };
    expect(required.isError).toBe(true);
    const payload = await http.createPaymentPayload(required.structuredContent as PaymentRequired);
    const paid = await session.callTool("get_audio_url", { slug: article.slug }, { metadata: { [MCP_PAYMENT_META]: JSON.parse(JSON.stringify(payload)) } });
    expect(paid.kind).toBe("task");
    expect(await recorded()).toMatchObject({ calls: 1, legs: 3 });
    const key = await finish((await jobOfTask(paid.handle?.taskId as string)) as string);
    const result = resultFromTaskOutcome((await paid.settle()).outcome) as { structuredContent: unknown; _meta?: Record<string, unknown> };
    expect(result.structuredContent).toMatchObject({ state: "ready", audio_url: `${env.BASE_URL}/v1/audio/${key}.mp3`, sponsored: false });
    expect(result._meta?.[MCP_PAYMENT_RESPONSE_META]).toBeUndefined();
    expect(await recorded()).toMatchObject({ calls: 1, legs: 3 });
    await session.close();
    await client.close();
  });
});
