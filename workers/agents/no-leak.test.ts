import { env } from "cloudflare:workers";
import * as v from "valibot";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { privateArticleOf } from "../../test/support/private-article";
import type { Caller } from "./caller";
import { mcpClient } from "../../test/support/mcp-client";
import { TOOLS } from "./tools";

/**
 * docs/rules.md 2: a listener_private article belongs to the listener who forwarded it. No tool,
 * on any surface, may show it to anyone else: an anonymous agent, or one acting for another listener.
 */
const SECRET = "okapiprivate";
let owner: Awaited<ReturnType<typeof privateArticleOf>>["owner"];
let other: typeof owner;
let slug: string;

beforeEach(async () => {
  let id: number;
  ({ owner, other, slug, id } = await privateArticleOf(SECRET, "e".repeat(64)));
  await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values ('j-private', ?, 'done', ?)").bind(id, "e".repeat(64)).run();
});

/** Every tool with arguments that would reach the article if anything could; all scopes and a payment. */
function attempts(): Record<(typeof TOOLS)[number]["name"], Record<string, unknown>[]> {
  return {
    search_articles: [{ query: SECRET, limit: 100 }, { query: SECRET, vertical: "tech", limit: 100 }, { vertical: "tech", limit: 100 }, { limit: 100 }],
    get_article: [{ slug }],
    get_audio_url: [{ slug }],
    subscribe_topic: [{ verticals: ["tech"] }],
    list_subscriptions: [{}],
    digest: [
      { verticals: ["tech"], window: "24h", limit: 20 },
      { window: "30d", limit: 20 },
    ],
  };
}

/** Nothing only the article carries: a record of it, its title, its text. Errors may echo the slug asked for. */
function expectNothingOf(text: string, where = "") {
  expect(text, where).not.toContain(`"slug":"${slug}"`);
  expect(text, where).not.toContain(`The ${SECRET} story`);
  expect(text, where).not.toContain(`All about ${SECRET}`);
}

async function everyAnswer(caller: Caller): Promise<string> {
  const answers: string[] = [];
  for (const tool of TOOLS) {
    for (const input of attempts()[tool.name]) {
      const parsed = v.parse(tool.input, input);
      answers.push(
        await tool.run(parsed as never, caller, env).then(
          (out) => JSON.stringify(out),
          (err: Error) => err.message,
        ),
      );
    }
  }
  return answers.join("\n");
}

describe("no tool reaches another listener's private article", () => {
  it("holds for anonymous and other-listener callers through the tool functions", async () => {
    const everything = { scopes: ["articles:read", "subscriptions:write", "digest:run"], paid: true, requestId: null };
    for (const caller of [
      { agentKey: "ip:198.51.100.2", listenerId: null, ...everything },
      { agentKey: "oauth:other", listenerId: other.listener.id, ...everything },
    ]) {
      expectNothingOf(await everyAnswer(caller));
    }
  });

  it("holds over MCP and REST", async () => {
    const client = await mcpClient();
    for (const tool of TOOLS) {
      for (const args of attempts()[tool.name]) {
        const result = await client.callTool({ name: tool.name, arguments: args });
        expectNothingOf(JSON.stringify(result), tool.name);
      }
    }
    await client.close();
    for (const path of [`/v1/agent/articles?q=${SECRET}`, `/v1/agent/articles/${slug}`, `/v1/agent/articles/${slug}/audio`]) {
      const res = await call(path);
      expectNothingOf(await res.text(), path);
    }
    expect((await call(`/v1/agent/articles/${slug}`)).status).toBe(404);
  });

  it("lets the owner reach it", async () => {
    const caller: Caller = { agentKey: "oauth:mine", listenerId: owner.listener.id, scopes: ["articles:read"], paid: false, requestId: null };
    const record = await TOOLS[1].run({ slug }, caller, env);
    expect(record.body_text).toContain(SECRET);
  });
});
