import { env, exports } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { audioAsTask, readerClient, readerHeaders, TaskSchema, taskResult } from "../../test/support/mcp-client";
import { testVars } from "../../test/vars";

/**
 * MCP task methods as an attacker uses them (issue 40 item 5): tasks/* spend the caller's budget as reads do,
 * tasks/result never holds a request open for the task's hour, and tasks/list reads a page of tasks with their
 * jobs' states. The render Queue is not consumed here: jobs stay queued unless a test finishes them in D1.
 */

const Created = v.looseObject({ task: TaskSchema });

/** One raw JSON-RPC POST of `method` to /mcp/v1 at 2025-11-25, from `ip`, with `headers` (a bearer token). */
function post(method: string, params: Record<string, unknown>, ip: string, headers: Record<string, string> = {}) {
  return exports.default.fetch(
    new Request(`${testVars.BASE_URL}/mcp/v1`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "cf-connecting-ip": ip,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
  );
}

describe("tasks/* spend the caller's budget", () => {
  it("an address polling tasks/get past RATE_LIMIT_READ_PER_MINUTE gets 429 with Retry-After, and no more answers", async () => {
    const limit = Number(testVars.RATE_LIMIT_READ_PER_MINUTE);
    const ip = "198.51.100.77";
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++) statuses.push((await post("tasks/get", { taskId: crypto.randomUUID() }, ip)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await post("tasks/get", { taskId: crypto.randomUUID() }, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: "rate_limited" });
    // The budget is the caller's: another address still gets its answer.
    expect((await post("tasks/get", { taskId: crypto.randomUUID() }, "198.51.100.78")).status).toBe(200);
  });

  it("a token's tasks/list and tasks/result share the budget its tool calls spend", async () => {
    const headers = await readerHeaders("tasks-budget@example.test");
    const limit = Number(testVars.RATE_LIMIT_READ_PER_MINUTE);
    for (let i = 0; i < limit; i++) expect((await post(i % 2 ? "tasks/list" : "tasks/result", { taskId: "x" }, `203.0.113.${i}`, headers)).status).toBe(200);
    // From any address: the token is the caller.
    expect((await post("tasks/list", {}, "203.0.113.250", headers)).status).toBe(429);
  });
});

describe("tasks/result is bounded", () => {
  it("on a render that never ends, answers pending with its poll_url after the call's own wait instead of holding the request", {
    timeout: 60_000,
  }, async () => {
    const article = await addArticle({ title: "A render that never ends" });
    const client = await readerClient("tasks-bounded@example.test");
    const { task } = v.parse(Created, await audioAsTask(client, article.slug));
    const result = await taskResult(client, task.taskId);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ state: "pending", poll_url: `${testVars.BASE_URL}/v1/articles/${article.slug}/audio` });
    await client.close();
    // The render never ends here, so its listener's render slot is given back by hand, as the job's end would:
    // the gate outlives the storage reset between tests, and the next test's listener has the same id.
    const { job_id } = result.structuredContent as { job_id: string };
    const listenerId = await env.DB.prepare("select listener_id from render_jobs where id = ?").bind(job_id).first<number>("listener_id");
    await env.RENDER_GATE.getByName(String(listenerId)).release(job_id);
  });
});

describe("tasks/list", () => {
  it("gives each of a token's tasks its own job's state, and a task whose job is gone as failed", async () => {
    const client = await readerClient("tasks-page@example.test");
    const made: string[] = [];
    for (const title of ["Page one", "Page two", "Page three"]) {
      const article = await addArticle({ title });
      made.push(v.parse(Created, await audioAsTask(client, article.slug)).task.taskId);
    }
    const jobOf = async (taskId: string) => (await env.DB.prepare("select job_id from mcp_tasks where id = ?").bind(taskId).first<string>("job_id"))!;
    await env.DB.prepare("update render_jobs set state = 'running', started_at = ? where id = ?")
      .bind(Date.now(), await jobOf(made[1]))
      .run();
    await env.DB.prepare("delete from render_jobs where id = ?")
      .bind(await jobOf(made[2]))
      .run();
    const { tasks } = await client.request({ method: "tasks/list", params: {} }, v.looseObject({ tasks: v.array(TaskSchema) }));
    expect(Object.fromEntries(tasks.map((t) => [t.taskId, [t.status, t.statusMessage]]))).toEqual({
      [made[0]]: ["working", "render queued"],
      [made[1]]: ["working", "rendering"],
      [made[2]]: ["failed", "the render job is gone"],
    });
    await client.close();
  });
});
