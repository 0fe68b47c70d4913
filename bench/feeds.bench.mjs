// Podcast feeds: the build of a feed of 100 and of 1,000 episodes (private feeds are built on every
// request, so their latency is the build). Cached public feeds are hot paths (hot-paths.bench.mjs).
import { executeSql } from "../scripts/local.mjs";
import { fetchOk, load, loadRows, sha256Hex } from "./http.mjs";
import { narratedArticlesSql } from "./seed.mjs";

const SIZES = [
  { vertical: "science", items: 1000, prefix: "a" },
  { vertical: "young_moms", items: 100, prefix: "b" },
];

/** SQL that seeds `items` narrated articles of `vertical` and a listener following it with feed token `token`. */
function seedSql({ vertical, items, prefix }, token) {
  return `${narratedArticlesSql({ vertical, items, prefix, slugPrefix: "bench-feeds", title: "Bench story", createdFrom: 1763700000000 })}
INSERT INTO listeners (email, token_hash, token_encrypted, private_feed_token_hash, private_feed_token_encrypted, verticals)
  VALUES ('bench-feeds-${vertical}@example.test', '${sha256Hex(`account-${token}`)}', 'unused', '${sha256Hex(token)}', 'unused', '["${vertical}"]');
`;
}

export async function run({ base, persistTo }) {
  const tokens = Object.fromEntries(SIZES.map((s) => [s.vertical, `bench-feed-token-${s.vertical}-${Date.now()}`]));
  executeSql(persistTo, SIZES.map((s) => seedSql(s, tokens[s.vertical])).join("\n"));

  const rows = [];
  for (const { vertical, items } of [...SIZES].reverse()) {
    const url = `${base}/v1/podcasts/u/${tokens[vertical]}.xml`;
    const count = (await fetchOk(url)).body.split("<item>").length - 1;
    if (count !== items) throw new Error(`expected ${items} items in the ${vertical} feed, got ${count}`);
    const result = await load(() => fetch(url), { total: items >= 1000 ? 30 : 100, concurrency: 1 });
    rows.push(...loadRows(`feed build, ${items} items (private feed, uncached)`, result).slice(0, 2));
  }

  return rows;
}
