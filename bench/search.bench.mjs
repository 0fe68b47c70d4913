// Search and stories-feed latency over 10,000 and then 100,000 articles in local D1. The archive is
// generated text: words made of syllables, drawn with a Zipf distribution so that some terms match
// a fifth of the archive and others a handful of articles, as in real prose. Articles are written
// straight into the local D1 file with node:sqlite (the FTS triggers index them as D1 would); at
// 100,000 the search's own statement runs on that file directly too, for the ratio of the API's p95
// to raw FTS5.
import { DatabaseSync } from "node:sqlite";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { indexQuery, pageStatement } from "../workers/articles/search-index.ts";
import { d1File, fetchOk, load, loadRows, percentile, sha256Hex } from "./http.mjs";

const STEPS = [10_000, 100_000];
const CHUNK = 10_000;
const VOCABULARY = 4000;
const TOPICS = ["tech", "finance", "science", "media", "sports", "culture", "health", "young_moms", "news"];
const HOSTS = ["tech", "markets", "news", "health", "sports", "comedy"];
const DAY = 86_400_000;

/** mulberry32, so every run generates the same archive. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = prng(20261121);
const SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gi ho ju ly pa qu re so tu wa xe yo ze".split(" ");
const words = Array.from({ length: VOCABULARY }, (_, r) => {
  let w = "";
  for (let n = r + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w + SYLLABLES[r % 7];
});
// Zipf (s = 1): cumulative weights for inverse-CDF sampling.
const cumulative = [];
words.reduce((sum, _, r) => (cumulative.push(sum + 1 / (r + 1)), sum + 1 / (r + 1)), 0);
function word() {
  const x = rand() * cumulative[cumulative.length - 1];
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return words[lo];
}
const phrase = (n) => Array.from({ length: n }, word).join(" ");
const pick = (list) => list[Math.floor(rand() * list.length)];

const INSERT_ARTICLE =
  "INSERT INTO articles (slug, title, publisher, vertical, summary, body_text, visibility, host, curated, content_hash, audio_key, listen_seconds, created_at) " +
  "VALUES (?, ?, 'Bench Gazette', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

function articleRow(i, now) {
  const r = rand();
  const visibility = r < 0.9 ? "public" : r < 0.98 ? "publisher_only" : "listener_private";
  const audio = rand() < 0.75 ? sha256Hex(`bench-audio-${i}`) : null;
  const title = phrase(6 + Math.floor(rand() * 5));
  return [
    `bench-search-${i}`,
    title,
    pick(TOPICS),
    phrase(20),
    phrase(120),
    visibility,
    rand() < 0.3 ? pick(HOSTS) : null,
    rand() < 0.1 ? 1 : 0,
    `bench-hash-${i}`,
    audio,
    audio === null ? null : 120 + Math.floor(rand() * 600),
    Math.floor(now - rand() * 60 * DAY),
  ];
}

/** Runs `fill` on the D1 file in one transaction per call (the platform keeps serving meanwhile). */
function write(persistTo, fill) {
  const db = new DatabaseSync(d1File(persistTo), { timeout: 30_000 });
  try {
    db.exec("BEGIN IMMEDIATE");
    fill(db);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/** Runs `use` on the D1 file opened read-only, and closes it. */
function read(persistTo, use) {
  const db = new DatabaseSync(d1File(persistTo), { readOnly: true, timeout: 30_000 });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** Adds articles from..to-1, CHUNK rows per transaction. */
function seedArticles(persistTo, from, to) {
  const now = Date.now();
  for (let start = from; start < to; start += CHUNK) {
    write(persistTo, (db) => {
      const insert = db.prepare(INSERT_ARTICLE);
      for (let i = start; i < Math.min(to, start + CHUNK); i++) insert.run(...articleRow(i, now));
    });
  }
}

/** A play for one in five articles, spread over the trending window (7 days). */
function seedPlays(persistTo, articles) {
  const plays = Math.floor(articles / 5);
  write(persistTo, (db) =>
    db.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${plays})
       INSERT INTO plays (article_id, seconds, amount_micros, created_at)
       SELECT (SELECT id FROM articles WHERE slug = 'bench-search-' || (abs(random()) % ${articles})), 60, 0,
              ${Date.now()} - abs(random()) % ${7 * DAY} FROM n;`,
    ),
  );
}

/**
 * The statement of one search page (workers/articles/search-index.ts pageStatement, rendered by
 * drizzle as D1 gets it), run on the D1 file with node:sqlite; its p95 over `total` runs.
 */
function rawSearchP95(persistTo, q, total = 200) {
  const { sql, params } = new SQLiteSyncDialect().sqlToQuery(pageStatement(indexQuery(q), { limit: 20, offset: 0 }, 200));
  const latencies = [];
  read(persistTo, (db) => {
    const page = db.prepare(sql);
    for (let i = 0; i < total; i++) {
      const t0 = performance.now();
      page.all(...params);
      latencies.push(performance.now() - t0);
    }
  });
  return percentile(latencies, 95);
}

/**
 * `count` public slugs from `offset`, for the one-D1-read floor: an article read by slug is kept
 * for 5 s in the isolate (workers/kernel/article-by-slug.ts), so each lookup asks for a new one.
 */
function publicSlugs(persistTo, offset, count) {
  const query = "SELECT slug FROM articles WHERE visibility = 'public' ORDER BY id LIMIT ? OFFSET ?";
  return read(persistTo, (db) =>
    db
      .prepare(query)
      .all(count, offset)
      .map((row) => row.slug),
  );
}

async function check(url, init) {
  return JSON.parse((await fetchOk(url, init)).body);
}

export async function run({ base, hello, persistTo }) {
  const token = `bench-search-listener-${Date.now()}`;
  write(persistTo, (db) =>
    db
      .prepare(
        "INSERT INTO listeners (email, token_hash, token_encrypted, verticals) VALUES ('bench-search@example.test', ?, 'unused', '[\"science\",\"finance\"]')",
      )
      .run(sha256Hex(token)),
  );
  const bypass = { headers: { "x-service-search-cache": "bypass" } };
  const queries = [
    { label: "common term", q: words[4] },
    { label: "two terms", q: `${words[30]} ${words[120]}` },
    { label: "rare term", q: words[2500] },
  ];
  const rows = [];
  let seeded = 0;
  for (const size of STEPS) {
    seedArticles(persistTo, seeded, size);
    seedPlays(persistTo, size);
    seeded = size;
    const n = size.toLocaleString("en-US");
    for (const { label, q } of queries) {
      const url = `${base}/v1/stories/search?q=${encodeURIComponent(q)}&expand=false`;
      const { results } = await check(url, bypass);
      const hits = results.length;
      if (label !== "rare term" && hits !== 20) throw new Error(`expected a full page for "${q}", got ${hits}`);
      const api = await load(() => fetch(url, bypass), { total: 200, concurrency: 4 });
      rows.push(...loadRows(`search, ${label}, ${n} articles (cache bypassed)`, api).slice(0, 2));
      if (size === STEPS.at(-1)) {
        // The same statement on the same file, one at a time in this process: no HTTP, no Worker, no D1 API.
        const raw = rawSearchP95(persistTo, q);
        const apiSerial = percentile((await load(() => fetch(url, bypass), { total: 200, concurrency: 1 })).latencies, 95);
        // The floors in the same conditions, one request at a time: hello-world (HTTP alone), and the
        // cheapest D1-backed request of the API, one article by slug (HTTP, the Worker, one D1 round trip).
        const floor = percentile((await load(() => fetch(`${hello}/`), { total: 200, concurrency: 1 })).latencies, 95);
        const slugs = publicSlugs(persistTo, queries.findIndex((query) => query.q === q) * 200, 200);
        let next = 0;
        const lookup = percentile(
          (await load(() => fetch(`${base}/v1/articles/${slugs[next++ % slugs.length]}`), { total: 200, concurrency: 1 })).latencies,
          95,
        );
        const bench = `search, ${label}, ${n} articles: API (one at a time) vs raw FTS5 (node:sqlite on the D1 file)`;
        rows.push(
          { benchmark: bench, metric: "raw FTS5 p95", value: raw.toFixed(2), unit: "ms" },
          { benchmark: bench, metric: "API p95", value: apiSerial.toFixed(2), unit: "ms" },
          { benchmark: bench, metric: "hello-world p95 (the HTTP floor)", value: floor.toFixed(2), unit: "ms" },
          { benchmark: bench, metric: "GET /v1/articles/{slug} p95 (one D1 read through the API)", value: lookup.toFixed(2), unit: "ms" },
          { benchmark: bench, metric: "ratio API / raw", value: (apiSerial / raw).toFixed(2), unit: "x" },
          {
            benchmark: bench,
            metric: "ratio (API - one D1 read) / raw: what the search adds above the cheapest D1 request",
            value: ((apiSerial - lookup) / raw).toFixed(2),
            unit: "x",
          },
        );
      }
    }
    const cachedUrl = `${base}/v1/stories/search?q=${encodeURIComponent(queries[0].q)}&expand=false`;
    await check(cachedUrl);
    rows.push(...loadRows(`search, cache hit, ${n} articles`, await load(() => fetch(cachedUrl), { total: 500 })).slice(0, 2));

    // With a listener token a page is built on every request (anonymous pages come from the edge cache).
    const feeds = [
      { label: "newest, audio ready (built per request)", qs: `listener_token=${token}` },
      { label: "vertical + exclude_stubs (built per request)", qs: `vertical=science&exclude_stubs=true&listener_token=${token}` },
      { label: "offset 5,000 (built per request)", qs: `offset=5000&listener_token=${token}` },
      { label: "trending (60 s in-isolate cache)", qs: `vertical=trending&listener_token=${token}` },
      { label: "personalized (built per request)", qs: `personalized=true&listener_token=${token}` },
      { label: "anonymous, edge cache", qs: "limit=20" },
    ];
    for (const { label, qs } of feeds) {
      const url = `${base}/v1/stories/feed?${qs}`;
      const items = (await check(url)).items.length;
      if (items !== 20) throw new Error(`expected 20 feed items for ${qs}, got ${items}`);
      rows.push(...loadRows(`stories feed, ${label}, ${n} articles`, await load(() => fetch(url), { total: 200, concurrency: 4 })).slice(0, 2));
    }
  }
  return rows;
}
