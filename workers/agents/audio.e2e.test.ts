import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle, addListener } from "../../test/support/articles";
import { audioAsTask, getTask, readerClient, taskResult } from "../../test/support/mcp-client";
import { invoke } from "./call";
import { get_audio_url } from "./tools";

// get_audio_url renders on demand with the real render Worker consuming the queue (vitest.config.ts, project narration-e2e).

describe("get_audio_url end to end", () => {
  it("renders an article that has no audio within the wait and answers a playable MP3", async () => {
    const article = await addArticle({ slug: "on-demand", title: "Owls at dusk", bodyText: "Owls hunt at dusk over the meadow." });
    const { listener } = await addListener();
    // A paying caller gets the bare audio (a free-plan listener's pre-roll: preroll/preroll.test.ts).
    const caller = { agentKey: "oauth:e2e", listenerId: listener.id, scopes: ["articles:read"], paid: true, requestId: null };
    const out = await invoke(get_audio_url, { slug: article.slug }, caller, env);
    expect(out).toMatchObject({ slug: "on-demand", state: "ready", cached: false, poll_url: null });
    expect(out.listen_seconds).toBeGreaterThan(0);
    const mp3 = await call(new URL(out.audio_url!).pathname);
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    expect((await mp3.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const again = await invoke(get_audio_url, { slug: article.slug }, caller, env);
    expect(again).toMatchObject({ state: "ready", cached: true, audio_url: out.audio_url, job_id: out.job_id });
  });

  it("over MCP, as a task: answered at once, polled with tasks/get until the render is done, the MP3 from tasks/result", async () => {
    const article = await addArticle({ slug: "as-a-task", title: "Herons at dawn", bodyText: "Herons wade at dawn in the shallows." });
    const client = await readerClient("e2e-task@example.test");
    const created = await audioAsTask(client, article.slug);
    expect(created.task?.status).toBe("working");
    const taskId = created.task?.taskId as string;
    const deadline = Date.now() + 60_000;
    let task = await getTask(client, taskId);
    while (task.status === "working" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, task.pollInterval ?? 1000));
      task = await getTask(client, taskId);
    }
    expect(task.status).toBe("completed");
    const result = await taskResult(client, taskId);
    expect(result.structuredContent).toMatchObject({ slug: "as-a-task", state: "ready", sponsored: false });
    const mp3 = await call(new URL(result.structuredContent?.audio_url as string).pathname);
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    await client.close();
  });
});
