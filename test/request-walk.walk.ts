import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { afterAll, expect, it } from "vitest";
import worker from "../workers/api";
import { addArticle } from "./support/articles";
import { walletAgent } from "./support/x402";
import { testVars } from "./vars";

/**
 * The files whose code runs for one request (docs/architecture.md "Files a request walks"), run only by
 * scripts/walk.mjs, which instruments the Worker's own modules with istanbul: a file counts when one of its
 * functions ran between the request's arrival and the end of its work after the response (waitUntil), so
 * module evaluation, test setup and the preparing requests are left out. The script also copies this file
 * into an older commit's tree, so it leans only on what the test helpers have long had.
 */

type FileCoverage = { path: string; f: Record<string, number> };
const coverage = () => (globalThis as { __VITEST_COVERAGE__?: Record<string, FileCoverage> }).__VITEST_COVERAGE__ ?? {};

/** Calls per function of every instrumented file, copied. */
function snapshot(): Map<string, number[]> {
  return new Map(Object.values(coverage()).map((file) => [file.path, Object.values(file.f)]));
}

/** The repository paths of the files of which a function ran since `before`, sorted. */
function walkedSince(before: Map<string, number[]>): string[] {
  const walked = Object.values(coverage()).filter((file) => {
    const was = before.get(file.path) ?? [];
    return Object.values(file.f).some((calls, i) => calls > (was[i] ?? 0));
  });
  const paths = walked.map((file) => file.path.replace(/^.*?\/(workers|durable-objects)\//, "$1/"));
  // The table declarations' relation callbacks run when a D1 client is first made, whichever request that is.
  return paths.filter((p) => !p.startsWith("workers/db/tables/")).sort();
}

/** Serves `request` through the Worker's entry, reads the answer and waits for the work left after it (waitUntil). */
async function serve(request: Request): Promise<{ status: number; text: string }> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, text };
}

/** The one JSON-RPC message of an MCP answer (JSON or one SSE event). */
function jsonRpc(text: string): { result?: { isError?: boolean; structuredContent?: unknown } } {
  const line = text.split("\n").find((l) => l.startsWith("data:"));
  return JSON.parse(line ? line.slice(5) : text);
}

const walks: Record<string, string[]> = {};

/** The publish webhook signature (docs/narration-api.md "Publish webhook"), written out: its module moved over time. */
async function signed(raw: string): Promise<string> {
  const t = String(Math.floor(Date.now() / 1000));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(testVars.PUBLISH_WEBHOOK_SECRET), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${raw}`)));
  return `t=${t},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

it("a publish: POST /v1/webhook/publish, signed", async () => {
  const raw = JSON.stringify({ title: "A walk", publisher: "Walk Times", vertical: "tech", body_text: "A first paragraph.\n\nA second one." });
  const signature = await signed(raw);
  const request = new Request(`${testVars.BASE_URL}/v1/webhook/publish`, {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/json", "x-legacy-signature": signature, "cf-connecting-ip": "203.0.113.9" },
  });
  const before = snapshot();
  expect((await serve(request)).status).toBeLessThan(300);
  walks.publish = walkedSince(before);
});

const SLUG = "walk-article";
const AUDIO_KEY = "a".repeat(64);
let payload: PaymentPayload | undefined;

/** An article whose audio is stored: get_audio_url's cached price. */
async function renderedArticle() {
  const article = await addArticle({ slug: SLUG, publisher: "Walk Times", audioKey: AUDIO_KEY, listenSeconds: 42 });
  await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values (?, ?, 'done', ?)")
    .bind(`job-${article.id}`, article.id, AUDIO_KEY)
    .run();
  await env.DB.prepare("insert into audio_objects (key, provider, voice, duration_seconds) values (?, 'offline', 'en-us', 41.6)").bind(AUDIO_KEY).run();
}

/** tools/call get_audio_url at /mcp/v1 (the 2025-11-25 revision, stateless), with `meta` as its params._meta. */
function toolsCall(meta?: Record<string, unknown>): Request {
  const params = { name: "get_audio_url", arguments: { slug: SLUG }, ...(meta ? { _meta: meta } : {}) };
  return new Request(`${testVars.BASE_URL}/mcp/v1`, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "cf-connecting-ip": "203.0.113.10",
    },
  });
}

// The quote comes first, in a test of its own, so that the paid call starts from the caches a fresh test has.
it("the paid call's quote: tools/call get_audio_url unpaid", async () => {
  await renderedArticle();
  const quoted = jsonRpc((await serve(toolsCall())).text);
  expect(quoted.result?.isError).toBe(true);
  payload = await walletAgent().http.createPaymentPayload(quoted.result?.structuredContent as PaymentRequired);
});

it("a paid MCP call: tools/call get_audio_url with an x402 payment in _meta", async () => {
  await renderedArticle();
  const before = snapshot();
  const paid = jsonRpc((await serve(toolsCall({ "x402/payment": payload }))).text);
  expect(paid.result?.isError).toBeFalsy();
  walks.mcp = walkedSince(before);
});

afterAll(() => {
  // Read by scripts/walk.mjs from the test output.
  console.log(`REQUEST-WALK ${JSON.stringify(walks)}`);
});
