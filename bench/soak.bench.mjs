// A mixed read soak: cached audio whole and ranged, the 32- and 1,000-item public feeds, a search
// cache hit, the anonymous stories feed and health, 32 requests in flight for SOAK_MINUTES minutes
// (default 5; 0 skips the soak, so a quick run stays short). Per minute: requests, errors, p50, p99,
// the memory (RSS) of the API's workerd process, where its isolate, its Durable Objects and the local
// services (D1, cache) live, and the API isolate's own JavaScript heap, read through DevTools: on
// Cloudflare that heap is what the 128 MB isolate limit counts.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { devtools } from "./devtools.mjs";
import { percentile } from "./http.mjs";
import { prepare } from "./hot-paths.bench.mjs";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 5);
const CONCURRENCY = 32;

/** RSS in MB of the largest workerd under `pid` (wrangler's own runtime, not its proxy). */
function workerdRssMb(pid) {
  const children = (p) => {
    try {
      return execFileSync("ps", ["-o", "pid=", "--ppid", String(p)])
        .toString()
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
    } catch {
      return []; // ps exits 1 when a process has no children
    }
  };
  const all = [];
  const walk = (p) => {
    for (const c of children(p)) {
      all.push(c);
      walk(c);
    }
  };
  walk(pid);
  let best = 0;
  for (const p of all) {
    try {
      if (!readFileSync(`/proc/${p}/cmdline`, "utf8").includes("workerd")) continue;
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
      best = Math.max(best, kb);
    } catch {
      // gone
    }
  }
  return best / 1024;
}

export async function run({ base, vars, persistTo, apiPid, inspectorPort }) {
  if (MINUTES <= 0) return [];
  const { audio, feed32, feed1000, search, stories, health } = await prepare({ base, vars, persistTo });
  const mix = [
    () => fetch(audio),
    () => fetch(audio, { headers: { Range: "bytes=0-1" } }),
    () => fetch(feed32),
    () => fetch(feed1000),
    () => fetch(search),
    () => fetch(stories),
    () => fetch(health),
  ];
  const minutes = Array.from({ length: MINUTES }, () => ({ latencies: [], errors: 0 }));
  const started = performance.now();
  const end = started + MINUTES * 60_000;
  let n = 0;
  async function worker() {
    while (performance.now() < end) {
      const request = mix[n++ % mix.length];
      const t0 = performance.now();
      const bucket = minutes[Math.min(MINUTES - 1, Math.floor((t0 - started) / 60_000))];
      try {
        const res = await request();
        await res.arrayBuffer();
        if (!res.ok) bucket.errors++;
      } catch {
        bucket.errors++;
      }
      bucket.latencies.push(performance.now() - t0);
    }
  }
  const session = await devtools(inspectorPort);
  const heapMb = async () => (await session.send("Runtime.getHeapUsage")).usedSize / 1024 / 1024;
  const memory = [];
  const heap = [];
  const sample = async () => {
    memory.push(workerdRssMb(apiPid));
    heap.push(await heapMb());
  };
  await sample();
  const sampler = setInterval(sample, 60_000);
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(sampler);
  await sample();
  session.close();

  const rows = [];
  const first = percentile(minutes[0].latencies, 50);
  minutes.forEach(({ latencies, errors }, i) => {
    const label = `soak, ${CONCURRENCY} concurrent mixed reads, minute ${i + 1}`;
    const p50 = percentile(latencies, 50);
    rows.push(
      { benchmark: label, metric: "requests (errors)", value: `${latencies.length} (${errors})`, unit: "" },
      { benchmark: label, metric: "p50 latency", value: p50.toFixed(1), unit: `ms (${(p50 / first).toFixed(2)}x minute 1)` },
      { benchmark: label, metric: "p99 latency", value: percentile(latencies, 99).toFixed(1), unit: "ms" },
      { benchmark: label, metric: "API workerd RSS", value: (memory[i + 1] ?? memory.at(-1)).toFixed(0), unit: `MB (${memory[0].toFixed(0)} at start)` },
      { benchmark: label, metric: "API isolate heap used", value: (heap[i + 1] ?? heap.at(-1)).toFixed(1), unit: `MB (${heap[0].toFixed(1)} at start)` },
    );
  });
  return rows;
}
