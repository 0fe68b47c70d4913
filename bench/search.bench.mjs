// Search and stories-feed latency over 10,000 and then 100,000 articles in local D1. The archive is
// generated text: words made of syllables, drawn with a Zipf distribution so that some terms match
// a fifth of the archive and others a handful of articles, as in real prose.
import { executeSql } from "../scripts/local.mjs";
import { fetchOk, load, loadRows, sha256Hex } from "./http.mjs";

const STEPS = [10_000, 100_000];
const CHUNK = 10_000;
// D1 refuses statements over 100 KB; a row is about 1.2 KB.
const ROWS_PER_INSERT = 40;
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
const sq = (s) => `'${s.replaceAll("'", "''")}'`;

function articleRow(i, now) {
  const r = rand();
  const visibility = r < 0.9 ? "public" : r < 0.98 ? "publisher_only" : "listener_private";
  const audio = rand() < 0.75 ? sq(sha256Hex(`bench-audio-${i}`)) : "NULL";
  const title = phrase(6 + Math.floor(rand() * 5));
  return `(${sq(`bench-search-${i}`)}, ${sq(title)}, 'Bench Gazette', ${sq(pick(TOPICS))}, ${sq(phrase(20))}, ${sq(phrase(120))}, ${sq(visibility)}, ${
    rand() < 0.3 ? sq(pick(HOSTS)) : "NULL"
  }, ${rand() < 0.1 ? 1 : 0}, ${sq(`bench-hash-${i}`)}, ${audio}, ${audio === "NULL" ? "NULL" : 120 + Math.floor(rand() * 600)}, ${Math.floor(now - rand() * 60 * DAY)})`;
}

/** Adds articles from..to-1 in chunks (one wrangler call each; the FTS triggers index them on insert). */
function seedArticles(persistTo, from, to) {
  const now = Date.now();
  for (let start = from; start < to; start += CHUNK) {
    const statements = [];
    for (let s = start; s < Math.min(to, start + CHUNK); s += ROWS_PER_INSERT) {
      const rows = [];
      for (let i = s; i < Math.min(to, start + CHUNK, s + ROWS_PER_INSERT); i++) rows.push(articleRow(i, now));
      statements.push(
        "INSERT INTO articles (slug, title, publisher, vertical, summary, body_text, visibility, host, curated, content_hash, audio_key, listen_seconds, created_at) VALUES\n" +
          rows.join(",\n") + ";",
      );
    }
    executeSql(persistTo, statements.join("\n"));
  }
}

/** A play for one in five articles, spread over the trending window (7 days). */
function seedPlays(persistTo, articles) {
  const plays = Math.floor(articles / 5);
  executeSql(
    persistTo,
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${plays})
     INSERT INTO plays (article_id, seconds, amount_micros, created_at)
     SELECT (SELECT id FROM articles WHERE slug = 'bench-search-' || (abs(random()) % ${articles})), 60, 0,
            ${Date.now()} - abs(random()) % ${7 * DAY} FROM n;`,
  );
}

async function check(url, init) {
  return JSON.parse((await fetchOk(url, init)).body);
}

export async function run({ base, persistTo }) {
  const token = `bench-search-listener-${Date.now()}`;
  executeSql(
    persistTo,
    `INSERT INTO listeners (email, token_hash, token_encrypted, verticals) VALUES ('bench-search@example.test', '${sha256Hex(token)}', 'unused', '["science","finance"]');`,
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
      const hits = (await check(url, bypass)).results.length;
      if (label !== "rare term" && hits !== 20) throw new Error(`expected a full page for "${q}", got ${hits}`);
      rows.push(...loadRows(`search, ${label}, ${n} articles (cache bypassed)`, await load(() => fetch(url, bypass), { total: 200, concurrency: 4 })).slice(0, 2));
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
