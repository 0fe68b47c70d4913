// Helpers for benchmarks: timed request loops against the local server (loopback only).
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** SHA-256 of a string, as lowercase hex (token hashes for seeded rows). */
export const sha256Hex = (text) => createHash("sha256").update(text).digest("hex");

/** Fetches `url` and returns the response and its text; throws unless the status is 200. */
export async function fetchOk(url, init) {
  // The first request after a long seeding pause may meet a keep-alive socket the server closed.
  const res = await fetch(url, init).catch(() => fetch(url, init));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
  return { res, body };
}

/** Percentile `p` (0..100) of `values`. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sends `total` requests with `concurrency` in flight; returns latencies (ms) and requests per second. */
export async function load(makeRequest, { total = 500, concurrency = 8 } = {}) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < total) {
      next++;
      const t0 = performance.now();
      // As in fetchOk: a keep-alive socket the server closed during a long pause fails once.
      const res = await makeRequest().catch(() => makeRequest());
      await res.arrayBuffer();
      if (!res.ok && res.status !== 304) throw new Error(`bench request failed: ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { latencies, rps: total / seconds };
}

/** Rows for a latency/throughput result. */
export function loadRows(benchmark, { latencies, rps }) {
  return [
    { benchmark, metric: "p50 latency", value: percentile(latencies, 50).toFixed(2), unit: "ms" },
    { benchmark, metric: "p95 latency", value: percentile(latencies, 95).toFixed(2), unit: "ms" },
    { benchmark, metric: "throughput", value: rps.toFixed(0), unit: "req/s" },
  ];
}

/**
 * How many requests a hot-path round sends (BENCH_REQUESTS). Rounds of 500 lasted about two seconds,
 * short enough for one GC pause or a cold function to move a round's rate by a tenth; at 1,500 both
 * sides run warm, and the hot-path bench takes about 20 minutes (bench/README.md, "Results").
 */
export const ROUND = Number(process.env.BENCH_REQUESTS ?? 1500);

/** Rounds of hello-world and the path, back to back, per hot path. */
const PAIRS = 5;

/**
 * Has a floor Worker (bench/hello-world, bench/hello-world-mcp) answer its copy path `url` with
 * `body`, as `contentType`, from now on.
 */
export async function keepCopy(url, body, contentType) {
  const stored = await fetch(url, { method: "PUT", body, headers: { "content-type": contentType ?? "application/octet-stream" } });
  if (stored.status !== 204) throw new Error(`${url} did not keep the copy: ${stored.status}`);
}

/**
 * A hot path against the hello-world Worker: five pairs of rounds, each hello-world then the path
 * back to back, so both sides of a pair meet the same background load; the pair with the median
 * ratio is reported. On two shared cores hello-world alone moves by half between rounds, so a ratio
 * of one side's best over the other's swings with whichever side got the quiet moment; adjacent
 * pairs cancel slow drift and the median drops the pairs a spike hit. Hello-world answers the same
 * bytes with the same Content-Type as the path (bench/hello-world/index.mjs), so the ratio (the
 * path's requests per second over hello-world's) is what the platform adds to the runtime moving
 * those bytes: 1.0 means nothing.
 */
export async function versusHello(label, makeRequest, { hello, total = ROUND, concurrency = 8 }) {
  const sample = await makeRequest();
  const body = await sample.arrayBuffer();
  const helloUrl = `${hello}/copy/${encodeURIComponent(label)}`;
  await keepCopy(helloUrl, body, sample.headers.get("content-type"));
  const helloRequest = () => fetch(helloUrl);
  const pairs = [];
  for (let round = 0; round < PAIRS; round++) {
    const floor = await load(helloRequest, { total, concurrency });
    const path = await load(makeRequest, { total, concurrency });
    pairs.push({ floor, path, ratio: path.rps / floor.rps });
  }
  const { floor, path, ratio } = pairs.sort((a, b) => a.ratio - b.ratio)[PAIRS >> 1];
  const latencies = pairs.flatMap((p) => p.path.latencies);
  const result = {
    hotPath: label,
    bytes: body.byteLength,
    rps: path.rps,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    helloRps: floor.rps,
    ratio,
    spread: [pairs[0].ratio, pairs[PAIRS - 1].ratio],
  };
  console.log(
    `  ${label}: ${result.rps.toFixed(0)} req/s, hello-world ${result.helloRps.toFixed(0)}, ratio ${ratio.toFixed(2)} (pairs ${result.spread.map((r) => r.toFixed(2)).join(" to ")})`,
  );
  return result;
}

/** The hot-path table: one line per path with its ratio to hello-world. */
export function hotPathTable(results) {
  const head = "| hot path | body bytes | req/s | p50 ms | p95 ms | hello-world req/s | ratio | pairs' range |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
  const row = (r) =>
    `| ${r.hotPath} | ${r.bytes} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.helloRps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.spread.map((x) => x.toFixed(2)).join(" to ")} |`;
  return `${head}${results.map(row).join("\n")}\n`;
}

/**
 * One stateless MCP tools/call POST with the headers Streamable HTTP asks of clients, as the SDK
 * client sends it: by default in the 2025-11-25 revision (what clients use unless pinned), with
 * `modern` in the 2026-07-28 per-request revision (its _meta and Mcp-Method / Mcp-Name headers).
 */
export function toolCall(base, name, args, { modern = false } = {}) {
  const version = modern ? "2026-07-28" : "2025-11-25";
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const params = modern ? { name, arguments: args, _meta } : { name, arguments: args };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": version };
  if (modern) Object.assign(headers, { "mcp-method": "tools/call", "mcp-name": name });
  return () => fetch(`${base}/mcp/v1`, { method: "POST", body, headers });
}

/** The JSON-RPC result of a response that may come as JSON or as one SSE event. */
export async function rpcResult(res) {
  const text = await res.text();
  const json = res.headers.get("content-type")?.includes("text/event-stream") ? /^data: (.*)$/m.exec(text)[1] : text;
  return JSON.parse(json).result;
}

/** The local D1 database file of the bench state (the one that is not miniflare's metadata). */
export function d1File(persistTo) {
  const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  return join(dir, file);
}
