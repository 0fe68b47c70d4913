import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { feedTokenOf, subscribeVia } from "../../test/support/listeners";
import { addArticle } from "../../test/support/articles";
import { audioAsTask, mcpClient, readerHeaders } from "../../test/support/mcp-client";
import { eq } from "drizzle-orm";
import { database, listeners } from "../db";
import { logUnexpected } from "./errors";
import { redactCredentials, REDACTED } from "./redact";

afterEach(() => vi.restoreAllMocks());

/** Every line the Worker logs while `run` runs. */
async function logged(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  }
  await run();
  vi.restoreAllMocks();
  return lines.join("\n");
}

/** `out` without each line's request id, for comparing the rest. */
const withoutIds = (out: string) => out.replace(/ req=\S+$/gm, "");

describe("request logs name the route, never a credential in the path", () => {
  it("logs a failed query without its bound parameters (issue 40 item 13)", async () => {
    // A storage failure in the middle of a subscribe: the insert binds the address and the new credentials.
    await env.DB.exec("ALTER TABLE listeners RENAME TO listeners_elsewhere");
    const viaRoute = await logged(async () => {
      const res = await call("/v1/listeners/subscribe", jsonBody("POST", { email: "params-leak@example.test", verticals: ["tech"] }));
      expect(res.status).toBe(500);
    });
    expect(viaRoute).toContain('insert into "listeners"');
    expect(viaRoute).not.toContain("params-leak@example.test");
    // A short query, whose parameters the first 200 characters of the message would carry.
    const failed = await database(env)
      .select({ id: listeners.id })
      .from(listeners)
      .where(eq(listeners.tokenHash, "secret-token-hash"))
      .catch((err: unknown) => err);
    const direct = await logged(async () => logUnexpected(failed));
    expect(direct).toContain('select "id" from "listeners"');
    expect(direct).toContain("no such table");
    expect(direct).not.toContain("secret-token-hash");
  });

  it("logs writes and failures by route pattern, with the status; successful reads not at all", async () => {
    const { token, feed_url } = await subscribeVia("logs@example.test", ["tech"]);
    const feedToken = feedTokenOf(feed_url);
    const out = withoutIds(
      await logged(async () => {
        await call(`/v1/listeners/${token}`);
        await call(`/v1/listeners/${token}`, jsonBody("PATCH", { verticals: ["tech"] }));
        await call(`/v1/podcasts/u/${feedToken}.xml`);
        await call(`/v1/podcasts/u/${feedToken}x.xml`);
      }),
    );
    expect(out).toContain("PATCH /v1/listeners/:token 200");
    expect(out).toMatch(/^GET \/v1\/podcasts\/u\/\S+ 404$/m);
    expect(out).not.toMatch(/^GET .* 200$/m);
    expect(out).not.toContain(token);
    expect(out).not.toContain(feedToken);
  });

  it("logs MCP tool calls that may write or fail by tool; successful reads and the handshake not at all", async () => {
    const out = withoutIds(
      await logged(async () => {
        const client = await mcpClient();
        await client.callTool({ name: "search_articles", arguments: { query: "harbour" } });
        await client.callTool({ name: "get_article", arguments: { slug: "no-such-article" } });
        await client.callTool({ name: "subscribe_topic", arguments: { verticals: ["tech"] } });
        await client.close();
      }),
    );
    // The client's probe for a server-sent stream is answered 405, stateless, and logged as any 4xx is.
    expect(out.split("\n").filter((line) => line.startsWith("MCP ") || line.includes("/mcp/v1"))).toEqual([
      "GET /mcp/v1 405",
      "MCP tools/call get_article error",
      "MCP tools/call subscribe_topic error",
    ]);
  });

  it("an unmatched path is logged with any credential-like part redacted", async () => {
    const { token } = await subscribeVia("typo@example.test");
    const out = await logged(() => call(`/v1/listener/${token}/prefs`));
    expect(out).toContain(`GET /v1/listener/${REDACTED}/prefs 404`);
    expect(out).not.toContain(token);
  });
});

describe("a request id in the error body, its header and the log line", () => {
  it("names the same id in the body, the X-Request-Id header and the log line of a failed request", async () => {
    let res: Response | undefined;
    const out = await logged(async () => {
      res = await call("/v1/listeners/no-such-token-at-all");
    });
    const body = await res!.json<{ request_id: string }>();
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res!.headers.get("X-Request-Id")).toBe(body.request_id);
    expect(out).toContain(`GET /v1/listeners/:token 404 req=${body.request_id}`);
  });

  it("is Cloudflare's Ray ID where the request has one, and differs between requests otherwise", async () => {
    const ray = await call("/v1/listeners/no-such-token-at-all", { headers: { "cf-ray": "8e2f1c0d9b7a6f5e-LHR" } });
    expect((await ray.json<{ request_id: string }>()).request_id).toBe("8e2f1c0d9b7a6f5e-LHR");
    const [a, b] = await Promise.all([call("/v1/nowhere"), call("/v1/nowhere")]);
    expect(a.headers.get("X-Request-Id")).not.toBe(b.headers.get("X-Request-Id"));
  });

  it("is on a 422 in its header and its body, beside the detail list", async () => {
    const res = await call("/v1/stories/search?q=");
    expect(res.status).toBe(422);
    expect(res.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const body = await res.json<{ detail: unknown[]; request_id: string }>();
    expect(body.detail.length).toBeGreaterThan(0);
    expect(body.request_id).toBe(res.headers.get("X-Request-Id"));
  });
});

describe("redactCredentials", () => {
  it("replaces tokens and signed links; keeps audio keys, hashes and slugs", () => {
    const token = "Xk3_pQ9vLm2-Zr8TnB4wYc6HdE1sJuA0oKfGiVe7Rq5";
    const key = "a".repeat(40) + "0123456789abcdef01234567";
    expect(redactCredentials(`[wrangler:info] GET /v1/listeners/${token}/queue 200 OK (3ms)`)).toBe(
      `[wrangler:info] GET /v1/listeners/${REDACTED}/queue 200 OK (3ms)`,
    );
    expect(redactCredentials(`POST /v1/unsubscribe/12.${token} 200`)).toBe(`POST /v1/unsubscribe/12.${REDACTED} 200`);
    expect(redactCredentials(`/magic?magic=${token}&scope=admin`)).toBe(`/magic?magic=${REDACTED}&scope=admin`);
    expect(redactCredentials(`GET /v1/audio/${key}.mp3 206`)).toBe(`GET /v1/audio/${key}.mp3 206`);
    expect(redactCredentials("GET /v1/articles/late-winner-at-the-harbour-ground-2026/audio 200")).toBe(
      "GET /v1/articles/late-winner-at-the-harbour-ground-2026/audio 200",
    );
  });
});

describe("a render job carries the id of the request that created it", () => {
  it("records the enqueuing request's id on the job it queues", async () => {
    const res = await call("/v1/jobs", jsonBody("POST", { text: "Carry my id." }, { ...apiKeyHeaders, "cf-ray": "7a6b5c4d3e2f1a0b-AMS" }));
    const { id } = await res.json<{ id: string }>();
    const row = await env.DB.prepare("SELECT request_id FROM render_jobs WHERE id = ?").bind(id).first<{ request_id: string }>();
    expect(row?.request_id).toBe("7a6b5c4d3e2f1a0b-AMS");
  });

  it("records it on a job an MCP tool call queues: the id travels as a value, from the route to the job row", async () => {
    const article = await addArticle({ title: "Carried by the tool" });
    const client = await mcpClient({ headers: { ...(await readerHeaders("request-id@example.test")), "cf-ray": "8b7c6d5e4f3a2b1c-LHR" } });
    const created = (await audioAsTask(client, article.slug)) as { structuredContent?: { job_id?: string } };
    await client.close();
    const row = await env.DB.prepare("SELECT request_id FROM render_jobs WHERE id = ?").bind(created.structuredContent?.job_id).first<{ request_id: string }>();
    expect(row?.request_id).toBe("8b7c6d5e4f3a2b1c-LHR");
  });
});
