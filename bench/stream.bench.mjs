// Listening while it renders and fairness (docs/narration.md "Listening while it renders",
// "Priorities and fairness"). First byte: a render job of a fresh text is created (POST /v1/jobs) and
// its stream URL requested at once; the time until the first MP3 frame (after the ID3 tag) arrives,
// at three sizes (goal: p95 within 1 s for each). Backlog: one publisher publishes 32 articles, then
// another publishes one; the latter's wait in the Queue (started_at - created_at) against the time of
// one render of the backlog (goal: within one render's time).
import { publish, untilDone } from "./rendering.bench.mjs";

const SIZES = [1_000, 5_000, 20_000];
const RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 5);
const BACKLOG_CHARS = 500;
const SENTENCE = "The council met on Tuesday evening to discuss the new cycling lanes, and residents who had waited two years came to listen. ";

/** About `size` characters in paragraphs of about 500; `seed` keeps them out of any earlier run's cache. */
function text(size, seed) {
  const out = [];
  for (let i = 0, n = 0; n < size; i++) {
    const p = `Report ${seed}, part ${i + 1}. ${SENTENCE.repeat(4)}`.slice(0, Math.min(500, size - n));
    out.push(p);
    n += p.length + 2;
  }
  return out.join("\n\n");
}

async function job(base, vars, body) {
  const res = await fetch(`${base}/v1/jobs`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-key": vars.SERVICE_API_KEY },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`POST /v1/jobs answered ${res.status}: ${await res.text()}`);
  return (await res.json()).id;
}

/** Milliseconds from the stream request to its first MP3 frame, and to its end. */
async function firstByte(base, id) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/jobs/${id}/stream.mp3`);
  if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
  const reader = res.body.getReader();
  let seen = 0;
  let tag = null;
  let first = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (tag === null) tag = 10 + ((value[6] << 21) | (value[7] << 14) | (value[8] << 7) | value[9]);
    seen += value.byteLength;
    if (first === null && seen > tag) first = performance.now() - t0;
  }
  return { first, whole: performance.now() - t0 };
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];

async function jobView(base, vars, id) {
  return (await fetch(`${base}/v1/jobs/${id}`, { headers: { "x-service-key": vars.SERVICE_API_KEY } })).json();
}

export async function run({ base, vars }) {
  const rows = [];
  const seed = Date.now();
  for (const size of SIZES) {
    const firsts = [];
    const wholes = [];
    for (let r = 0; r < RUNS; r++) {
      const id = await job(base, vars, { text: text(size, `${seed}-${size}-${r}`) });
      const { first, whole } = await firstByte(base, id);
      await untilDone(base, vars, id);
      firsts.push(first);
      wholes.push(whole);
    }
    const bench = `stream of a ${size.toLocaleString("en")}-character job (${RUNS} runs)`;
    rows.push(
      { benchmark: bench, metric: "first MP3 frame p50", value: quantile(firsts, 0.5).toFixed(0), unit: "ms" },
      { benchmark: bench, metric: "first MP3 frame p95 (goal 1000 or less)", value: quantile(firsts, 0.95).toFixed(0), unit: "ms" },
      { benchmark: bench, metric: "whole stream p50", value: quantile(wholes, 0.5).toFixed(0), unit: "ms" },
    );
  }

  // The backlog: 32 articles of one publisher, then one of another's.
  const backlog = [];
  for (let i = 0; i < 32; i++) {
    const { job_id } = await publish(base, vars, {
      title: `Backlog ${seed} ${i}`,
      publisher: "Backlog Press",
      vertical: "news",
      body_text: text(BACKLOG_CHARS, `${seed}-b${i}`),
    });
    backlog.push(job_id);
  }
  const { job_id: other } = await publish(base, vars, {
    title: `Other ${seed}`,
    publisher: "Other Gazette",
    vertical: "news",
    body_text: text(BACKLOG_CHARS, `${seed}-o`),
  });
  await untilDone(base, vars, other);
  const view = await jobView(base, vars, other);
  const wait = Date.parse(view.started_at) - Date.parse(view.created_at);
  const own = Date.parse(view.finished_at) - Date.parse(view.started_at);
  // One render's time: the backlog's renders done by then (the rest renders on after the bench).
  const views = await Promise.all(backlog.map((id) => jobView(base, vars, id)));
  const spans = views.filter((j) => j.state === "done").map((j) => Date.parse(j.finished_at) - Date.parse(j.started_at));
  const render = quantile(spans, 0.5);
  const bench = `a new publisher's job behind another's backlog of 32 articles (${BACKLOG_CHARS} characters each)`;
  rows.push(
    { benchmark: bench, metric: "its wait in the Queue", value: String(wait), unit: "ms" },
    { benchmark: bench, metric: "one backlog render (median)", value: String(render), unit: "ms" },
    { benchmark: bench, metric: "wait / one render (goal 1.0 or less)", value: (wait / render).toFixed(2), unit: "x" },
    { benchmark: bench, metric: "its own render", value: String(own), unit: "ms" },
  );
  return rows;
}
