// The hot paths a podcast app, a directory or a listener hits, each against the hello-world Worker
// measured interleaved in the same run (bench/http.mjs versusHello): cached audio whole and ranged,
// a cached public feed of 32 and of 1,000 items and its 304, a search cache hit, the anonymous
// stories feed and the free MCP tools. The ratio is what the platform keeps of the runtime's floor.
import { executeSql, startWorker } from "../scripts/local.mjs";
import { fetchOk, keepCopy, rpcResult, toolCall, versusHello } from "./http.mjs";
import { narratedArticlesSql } from "./seed.mjs";

const TEXT = "Benchmarks measure what matters. This sentence is rendered once and then served from the cache.";

/** `items` narrated public articles of `vertical`. */
function seedSql(vertical, items, prefix) {
  return narratedArticlesSql({ vertical, items, prefix, slugPrefix: "bench-hot", title: "Hot path story", createdFrom: 1763800000000 });
}

/** A podcast app's user agent: a bot's (Node's own, "node") would be turned away before any counting. */
const PODCAST_APP = { "User-Agent": "AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)" };

let prepared;

/**
 * Seeds 32 and 1,000 narrated articles, renders one text and fills every cache once; the URLs of the
 * hot paths. Once per bench run: the soak (soak.bench.mjs) reads the same paths.
 */
export function prepare({ base, vars, persistTo }) {
  prepared ??= (async () => {
    executeSql(persistTo, seedSql("finance", 32, "c") + seedSql("news", 1000, "d"));
    const rendered = await fetch(`${base}/v1/render`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-key": vars.SERVICE_API_KEY },
      body: JSON.stringify({ text: TEXT }),
    });
    if (!rendered.ok) throw new Error(`render for the audio hot path answered ${rendered.status}: ${await rendered.text()}`);
    const { key } = await rendered.json();
    // The audio is an article's, so every request is counted as a podcast app's download is
    // (docs/publishers.md "Listening numbers"): the rows measure the audio route with its counting.
    executeSql(persistTo, `UPDATE articles SET audio_key = '${key}', listen_seconds = 6 WHERE slug = 'bench-hot-finance-7';`);
    const audio = `${base}/v1/audio/${key}.mp3`;
    await fetchOk(audio); // fills the edge cache

    const feed32 = `${base}/v1/podcasts/service-finance.xml`;
    const feed1000 = `${base}/v1/podcasts/service-news.xml`;
    for (const [url, items] of [
      [feed32, 32],
      [feed1000, 1000],
    ]) {
      const count = (await fetchOk(url)).body.split("<item>").length - 1;
      if (count !== items) throw new Error(`expected ${items} items in ${url}, got ${count}`);
    }
    const etag = (await fetchOk(feed1000)).res.headers.get("etag");
    const search = `${base}/v1/stories/search?q=${encodeURIComponent("hot path story")}&expand=false`;
    await fetchOk(search);
    const stories = `${base}/v1/stories/feed?limit=20`;
    await fetchOk(stories);
    return { audio, feed32, feed1000, etag, search, stories, health: `${base}/v1/health` };
  })();
  return prepared;
}

/**
 * The hot paths, each as [label, a function that sends one request]; the MCP tools checked once.
 * With `mcpFloor` (the base of bench/hello-world-mcp), each MCP row is followed by the same call to
 * that server, which answers the very result the tool gave: the share of hello-world the MCP
 * handler and the SDK leave before any code of ours runs.
 */
export async function hotPaths({ base, vars, persistTo, mcpFloor }) {
  const { audio, feed32, feed1000, etag, search, stories, health } = await prepare({ base, vars, persistTo });
  const tools = [
    ["MCP tools/call search_articles (free)", "search_articles", { query: "hot path story", limit: 20 }, {}],
    ["MCP tools/call get_article (free)", "get_article", { slug: "bench-hot-finance-7" }, {}],
    ["MCP tools/call search_articles (free), 2026-07-28 revision", "search_articles", { query: "hot path story", limit: 20 }, { modern: true }],
  ];
  const mcpRows = [];
  for (const [label, name, args, lane] of tools) {
    const call = toolCall(base, name, args, lane);
    const result = await rpcResult(await call());
    if (result.isError) throw new Error(`MCP tool failed: ${JSON.stringify(result).slice(0, 200)}`);
    mcpRows.push([label, call]);
    if (!mcpFloor) continue;
    await keepCopy(`${mcpFloor}/copy/${name}`, JSON.stringify(result), "application/json");
    const floorCall = toolCall(mcpFloor, name, args, lane);
    const same = (await rpcResult(await floorCall())).structuredContent;
    if (JSON.stringify(same) !== JSON.stringify(result.structuredContent)) throw new Error(`the MCP floor did not answer ${name}'s result`);
    mcpRows.push([`${label}: the MCP floor, the same result from hello-world-mcp`, floorCall]);
  }
  return [
    ["GET /v1/health", () => fetch(health)],
    ["GET cached .mp3, whole", () => fetch(audio, { headers: PODCAST_APP })],
    ["GET cached .mp3, Range bytes=0-1", () => fetch(audio, { headers: { ...PODCAST_APP, Range: "bytes=0-1" } })],
    ["GET cached public feed, 32 items", () => fetch(feed32)],
    ["GET cached public feed, 1,000 items", () => fetch(feed1000)],
    ["GET cached public feed, If-None-Match (304)", () => fetch(feed1000, { headers: { "If-None-Match": etag } })],
    ["GET /v1/stories/search, cache hit", () => fetch(search)],
    ["GET /v1/stories/feed, anonymous", () => fetch(stories)],
    ...mcpRows,
  ];
}

/** The MCP floor's port: after the API (BENCH_PORT), hello-world (+1) and the render Worker (+2). */
const MCP_FLOOR_OFFSET = 3;

export async function run({ base, hello, port, vars, persistTo }) {
  const mcpFloor = await startWorker({
    port: port + MCP_FLOOR_OFFSET,
    persistTo: ".wrangler/bench-hello-mcp-state",
    quiet: true,
    configs: ["-c", "bench/hello-world-mcp/wrangler.toml"],
    readyPath: "/",
  });
  try {
    const results = [];
    const paths = await hotPaths({ base, vars, persistTo, mcpFloor: mcpFloor.base });
    for (const [label, request] of paths) results.push(await versusHello(label, request, { hello }));
    return { hotPaths: results };
  } finally {
    mcpFloor.child.kill();
  }
}
