// Concurrent writers against a running platform (loopback only): signed publishes, render jobs,
// subscribes and plays, the writes that once met SQLITE_BUSY when two processes shared the state.
// Used by the smoke test (no 5xx while a render runs) and the rendering bench (their p95 then).
import { signature } from "./seed.mjs";

/** One request of each kind, numbered `i`; `stamp` keeps a run's articles and addresses its own. */
function writes(base, vars, stamp, playedSlug) {
  const json = (path, body, headers = {}) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const service = { "x-service-key": vars.SERVICE_API_KEY };
  return {
    publish(i) {
      const article = {
        slug: `writer-${stamp}-${i}`,
        title: `Concurrent writer ${i}`,
        publisher: "Writers",
        vertical: "news",
        body_text: `Writer ${i} of run ${stamp} publishes while a long article renders. Nothing may fail.`,
      };
      const body = JSON.stringify(article);
      return fetch(`${base}/v1/webhook/publish`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-legacy-signature": signature(vars.PUBLISH_WEBHOOK_SECRET, body) },
        body,
      });
    },
    // One text for every job: the first renders, the rest find it cached, as retries of a client do.
    job: () => json("/v1/jobs", { text: `Concurrent writers of run ${stamp}.` }, service),
    subscribe: (i) => json("/v1/listeners/subscribe", { email: `writer-${stamp}-${i}@example.test`, verticals: ["news"] }),
    play: () => json("/v1/plays", { article_slug: playedSlug, amount_micros: 1000, seconds: 30 }, service),
  };
}

export const WRITE_KINDS = ["publish", "job", "subscribe", "play"];

/**
 * Sends `total` writes, `concurrency` at a time, the kinds in turn. Resolves with each kind's
 * latencies (ms) and every answer's status; a 5xx is counted, not thrown, so a caller sees them all.
 */
export async function concurrentWriters({ base, vars, total, concurrency, playedSlug }) {
  const make = writes(base, vars, Date.now(), playedSlug);
  const latencies = Object.fromEntries(WRITE_KINDS.map((k) => [k, []]));
  const statuses = {};
  let next = 0;
  async function writer() {
    while (next < total) {
      const i = next++;
      const kind = WRITE_KINDS[i % WRITE_KINDS.length];
      const t0 = performance.now();
      const res = await make[kind](i);
      await res.arrayBuffer();
      latencies[kind].push(performance.now() - t0);
      const key = `${kind} ${res.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, writer));
  const failed = Object.entries(statuses).filter(([key]) => / 5\d\d$/.test(key));
  return { latencies, statuses, failed };
}
