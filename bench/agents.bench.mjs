// The agent surface against the REST search it wraps: tools/call search_articles and get_article
// over /mcp/v1 (stateless Streamable HTTP, one JSON-RPC POST per call), beside GET
// /v1/stories/search and GET /v1/articles/{slug} of the same query and article, over 5,000 articles.
import { executeSql } from "../scripts/local.mjs";
import { fetchOk, load, loadRows, rpcResult, toolCall } from "./http.mjs";

const ARTICLES = 5_000;
const ROWS_PER_INSERT = 40;
const TOPICS = ["tech", "finance", "science", "media", "sports", "culture"];
const WORDS = "amber basalt cobalt delta ember fjord granite harbor indigo juniper kestrel lagoon".split(" ");

const sq = (s) => `'${s.replaceAll("'", "''")}'`;

function seed(persistTo) {
  const now = Date.now();
  const statements = [];
  for (let s = 0; s < ARTICLES; s += ROWS_PER_INSERT) {
    const rows = [];
    for (let i = s; i < Math.min(ARTICLES, s + ROWS_PER_INSERT); i++) {
      const w = (k) => WORDS[(i * 7 + k * 3) % WORDS.length];
      rows.push(
        `(${sq(`bench-agent-${i}`)}, ${sq(`The ${w(0)} ${w(1)} report ${i}`)}, 'Bench Gazette', ${sq(TOPICS[i % TOPICS.length])}, ${sq(`A ${w(2)} summary.`)}, ` +
          `${sq(`${w(3)} ${w(4)} ${w(5)} `.repeat(40))}, 'public', ${sq(`bench-agent-hash-${i}`)}, ${now - i * 60_000})`,
      );
    }
    statements.push(
      `INSERT INTO articles (slug, title, publisher, vertical, summary, body_text, visibility, content_hash, created_at) VALUES\n${rows.join(",\n")};`,
    );
  }
  executeSql(persistTo, statements.join("\n"));
}

export async function run({ base, persistTo }) {
  seed(persistTo);
  const q = "cobalt";
  const slug = "bench-agent-42";
  const mcpSearch = toolCall(base, "search_articles", { query: q, limit: 20 });
  const mcpGet = toolCall(base, "get_article", { slug });

  const found = await rpcResult(await mcpSearch());
  if (found.isError || found.structuredContent.articles.length !== 20) throw new Error(`search_articles: ${JSON.stringify(found).slice(0, 200)}`);
  const record = await rpcResult(await mcpGet());
  if (record.isError || record.structuredContent.slug !== slug) throw new Error(`get_article: ${JSON.stringify(record).slice(0, 200)}`);
  const restSearch = `${base}/v1/stories/search?q=${q}&expand=false`;
  await fetchOk(restSearch);

  const opts = { total: 400, concurrency: 4 };
  return [
    ...loadRows(`agents: REST GET /v1/stories/search "${q}", ${ARTICLES} articles (cached)`, await load(() => fetch(restSearch), opts)),
    ...loadRows(`agents: MCP tools/call search_articles "${q}" (cached search)`, await load(mcpSearch, opts)),
    ...loadRows("agents: REST GET /v1/articles/{slug}", await load(() => fetch(`${base}/v1/articles/${slug}`), opts)),
    // GET /v1/agent/articles takes a bearer token (docs/agents/tools.md "Agents"); get_article's REST form is open.
    ...loadRows("agents: REST GET /v1/agent/articles/{slug}", await load(() => fetch(`${base}/v1/agent/articles/${slug}`), opts)),
    ...loadRows("agents: MCP tools/call get_article", await load(mcpGet, opts)),
  ];
}
