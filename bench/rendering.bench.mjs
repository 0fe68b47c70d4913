// Rendering never stalls the API, and where a publish's time goes.
//
// 1. GET /v1/health and an uncached search, p95 idle and then while renders run (the render Worker
//    runs in its own wrangler dev process, scripts/local.mjs startDev): the ratio to idle. Then
//    concurrent writers (signed publishes, jobs, subscribes, plays; scripts/writers.mjs), idle and
//    while renders run: the p95 of a publish and of every write, and how many answered 5xx (goal: 0).
// 2. Publish to audio ready: a signed publish of a 5,000-character article, timed until its job is
//    done, split into queue wait, synthesis, encoding, the watermark and bookkeeping from the job's own
//    record (render_jobs: created, started, finished, synthesis_ms, encoding_ms, marking_ms), read from
//    the D1 file.
import { createHmac } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { d1File, fetchOk, load, percentile } from "./http.mjs";
import { concurrentWriters } from "../scripts/writers.mjs";

const SENTENCES = [
  "The harbour master counted forty boats at dawn, more than in any spring since the new quay opened.",
  "Fishermen said the cold current had brought the herring back early, and the market prices fell by a third.",
  "Children from the school on the hill walked down to watch the nets come in, their teachers close behind.",
  "By noon the gulls had found the fish crates, and the dock workers gave up chasing them away.",
  "In the evening the council promised a study of the harbour's future, as it does every year.",
];

/** About `chars` characters of prose; `seed` makes each text distinct, so nothing comes from the cache. */
function article(chars, seed) {
  let text = `Report ${seed}. `;
  for (let i = 0; text.length < chars; i++) text += `${SENTENCES[(i + seed) % SENTENCES.length]} `;
  return text.slice(0, chars);
}

async function jobState(base, vars, id) {
  return (await fetchOk(`${base}/v1/jobs/${id}`, { headers: { "x-service-key": vars.SERVICE_API_KEY } })).body;
}

export async function publish(base, vars, body) {
  const raw = JSON.stringify(body);
  const t = String(Math.floor(Date.now() / 1000));
  const v1 = createHmac("sha256", vars.PUBLISH_WEBHOOK_SECRET).update(`${t}.${raw}`).digest("hex");
  const res = await fetch(`${base}/v1/webhook/publish`, {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/json", "x-legacy-signature": `t=${t},v1=${v1}` },
  });
  if (!res.ok) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export async function untilDone(base, vars, id, timeoutMs = 600_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const { state, error } = JSON.parse(await jobState(base, vars, id));
    if (state === "done") return;
    if (state === "failed" || state === "cancelled") throw new Error(`job ${id} ended ${state}: ${error}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${id} not done within ${timeoutMs / 1000} s`);
}

export async function run({ base, vars, persistTo }) {
  const stamp = Date.now();
  const health = () => fetch(`${base}/v1/health`);
  const bypass = { headers: { "x-service-search-cache": "bypass" } };
  const search = () => fetch(`${base}/v1/stories/search?q=harbour&expand=false`, bypass);
  // 600 requests: with 150, a p95 was the eighth-slowest request, and one stall of the machine moved
  // the ratio from 1.4 to 2.3 between otherwise equal runs; here it is the thirtieth.
  const p95 = async (request) => percentile((await load(request, { total: 600, concurrency: 4 })).latencies, 95);
  // The writers' p95: of a publish, and of every write; 160 writes, 6 at a time.
  const writes = async () => {
    const { latencies, failed } = await concurrentWriters({ base, vars, total: 160, concurrency: 6, playedSlug: "bench-writers-none" });
    return {
      publish: percentile(latencies.publish, 95),
      writes: percentile(Object.values(latencies).flat(), 95),
      failed: failed.reduce((n, [, count]) => n + count, 0),
    };
  };
  const idleWrites = await writes();
  const idle = { health: await p95(health), search: await p95(search), publish: idleWrites.publish, writes: idleWrites.writes };

  // Two long articles (one Queue batch), so synthesis runs for the whole measurement.
  const jobs = [];
  for (let i = 0; i < 2; i++) {
    const body = { title: `Rendering load ${stamp} ${i}`, publisher: "Bench Post", vertical: "news", body_text: article(8_000, stamp + i) };
    jobs.push((await publish(base, vars, body)).job_id);
  }
  const runningNow = async () =>
    (await Promise.all(jobs.map(async (id) => JSON.parse(await jobState(base, vars, id)).state))).filter((s) => s === "running").length;
  for (let i = 0; i < 300 && (await runningNow()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
  const busyWrites = await writes();
  const busy = { health: await p95(health), search: await p95(search), publish: busyWrites.publish, writes: busyWrites.writes };
  const stillRunning = await runningNow();
  console.log(`  p95 idle ${JSON.stringify(idle)}, while rendering ${JSON.stringify(busy)} ms`);
  await Promise.all(jobs.map((id) => untilDone(base, vars, id)));

  const rows = [];
  const measured = [
    ["health", "GET /v1/health"],
    ["search", "GET /v1/stories/search (uncached)"],
    ["publish", "signed publish, among 6 concurrent writers"],
    ["writes", "every write of 6 concurrent writers (publish, job, subscribe, play)"],
  ];
  for (const [name, label] of measured) {
    const bench = `${label} while renders run (${stillRunning} of ${jobs.length} still running at the end)`;
    rows.push(
      { benchmark: bench, metric: "p95 idle", value: idle[name].toFixed(1), unit: "ms" },
      { benchmark: bench, metric: "p95 while rendering", value: busy[name].toFixed(1), unit: "ms" },
      { benchmark: bench, metric: "ratio to idle", value: (busy[name] / idle[name]).toFixed(2), unit: "x" },
    );
  }

  rows.push({
    benchmark: "concurrent writers, idle and while renders run",
    metric: "answers 5xx",
    value: String(idleWrites.failed + busyWrites.failed),
    unit: "of 320",
  });

  // Publish to audio ready, on a quiet platform.
  const t0 = Date.now();
  const { job_id } = await publish(base, vars, {
    title: `Publish timing ${stamp}`,
    publisher: "Bench Post",
    vertical: "news",
    body_text: article(5_000, stamp + 99),
  });
  await untilDone(base, vars, job_id);
  const total = Date.now() - t0;
  const db = new DatabaseSync(d1File(persistTo), { readOnly: true });
  const job = db.prepare("SELECT created_at, started_at, finished_at, synthesis_ms, encoding_ms, marking_ms FROM render_jobs WHERE id = ?").get(job_id);
  db.close();
  const queueWait = job.started_at - job.created_at;
  const bookkeeping = total - queueWait - job.synthesis_ms - job.encoding_ms - job.marking_ms;
  const bench = "publish to audio ready, 5,000-character article (signed webhook to job done)";
  const share = (ms) => `ms (${((100 * ms) / total).toFixed(1)} %)`;
  rows.push(
    { benchmark: bench, metric: "total", value: String(total), unit: "ms" },
    { benchmark: bench, metric: "queue wait", value: String(queueWait), unit: share(queueWait) },
    { benchmark: bench, metric: "synthesis", value: String(job.synthesis_ms), unit: share(job.synthesis_ms) },
    { benchmark: bench, metric: "encoding (MP3 + Opus)", value: String(job.encoding_ms), unit: share(job.encoding_ms) },
    { benchmark: bench, metric: "watermark", value: String(job.marking_ms), unit: share(job.marking_ms) },
    { benchmark: bench, metric: "bookkeeping (everything else)", value: String(bookkeeping), unit: share(bookkeeping) },
  );
  return rows;
}
