// Helpers for benchmarks: timed request loops against the local server (loopback only).
import { createHash } from "node:crypto";

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
function percentile(values, p) {
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
      const res = await makeRequest();
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
