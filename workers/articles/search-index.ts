import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db";
import { hasUnspacedScript } from "../kernel/words.ts";
import { narratedIn } from "../kernel/language-filter.ts";

/** One local hit: the listing columns plus a snippet whose matched terms are wrapped in MARK_OPEN/MARK_CLOSE. */
export interface SearchHit {
  slug: string;
  title: string;
  publisher: string;
  vertical: string;
  url: string | null;
  visibility: "public" | "publisher_only" | "listener_private";
  summary: string;
  audioKey: string | null;
  listenSeconds: number | null;
  createdAt: Date;
  publishedAt: Date | null;
  snippet: string;
  rank: number;
}

// Control characters cannot occur in a query term, so marking with them and HTML-escaping the
// snippet afterwards keeps article text from ever being read as markup.
const MARK_OPEN = "\u0002";
const MARK_CLOSE = "\u0003";

/**
 * A query as the indexes take it (migrations/0028_search_languages.sql). Words of spaced scripts go
 * to the word index (articles_fts: stemmed, diacritics folded). A query with a word of a script
 * written without spaces (kernel/words.ts) goes to the trigram index (articles_trigram), which
 * finds any run of three or more characters inside the text: each word of three or more characters
 * is a substring to MATCH there, and a shorter one (東京) is a LIKE on the same table, which FTS5
 * answers by reading the text, as trigrams cannot index fewer than three characters.
 */
export interface IndexQuery {
  index: "articles_fts" | "articles_trigram";
  /** The FTS5 MATCH expression, or null when every word is too short for trigrams. */
  match: string | null;
  /** LIKE patterns every hit must contain (the trigram index's short words). */
  likes: string[];
}

/** A quoted FTS5 string: operators, column filters and quotes in user input stay plain text (FTS5 "Strings"). */
const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * The index query of free text: every word must match (ANDed). Null when no word has a letter or digit.
 */
export function indexQuery(q: string): IndexQuery | null {
  const terms = q.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (terms.length === 0) return null;
  if (!terms.some(hasUnspacedScript)) return { index: "articles_fts", match: terms.map(quoted).join(" "), likes: [] };
  const long = terms.filter((t) => [...t].length >= 3);
  // Letters and digits only, so LIKE's wildcards in a short word are never wildcards.
  const likes = terms.filter((t) => [...t].length < 3).map((t) => `%${t.replace(/[^\p{L}\p{N}]/gu, "")}%`);
  return { index: "articles_trigram", match: long.length ? long.map(quoted).join(" ") : null, likes };
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** The snippet as safe HTML with <mark> around matched terms. */
function markSnippet(raw: string): string {
  return raw
    .replace(/[&<>"']/g, (c) => ESCAPES[c])
    .replaceAll(MARK_OPEN, "<mark>")
    .replaceAll(MARK_CLOSE, "</mark>");
}

/** bm25 weights per column (title, summary, body_text): a title match counts ten times a body match. */
const bm25 = (index: IndexQuery["index"]) => sql.raw(`bm25(${index}, 10.0, 4.0, 1.0)`);

/** First ranking window; it grows fourfold while filters leave the page short and more matches exist. */
const FIRST_WINDOW = 200;
const WINDOW_GROWTH = 4;

export interface SearchOptions {
  q: string;
  vertical?: string;
  /** BCP 47 tag: only articles narrated in it (by primary subtag when it has no region, kernel/language-filter.ts). */
  language?: string;
  limit: number;
  offset: number;
}

/** The rows of `table` (an alias of the query's index) that `query` finds, in `columns`. */
function found(query: IndexQuery, table: string, columns: string[]): SQL {
  const t = sql.raw(table);
  const scope = columns.length === 3 ? "" : `{${columns.join(" ")}} : `;
  const conditions: SQL[] = [];
  if (query.match) conditions.push(sql`${t}.${sql.raw(query.index)} match ${`${scope}(${query.match})`}`);
  for (const like of query.likes)
    conditions.push(
      sql`(${sql.join(
        columns.map((c) => sql`${t}.${sql.raw(c)} like ${like}`),
        sql` or `,
      )})`,
    );
  return sql.join(conditions, sql` and `);
}

/**
 * One page of hits for `query`, best first, in one statement. FTS5 ranks the best `window` matches
 * by BM25 alone (cheap: no join, no snippet); the filters run on that window only, and snippets are
 * made for the page only, matched again by rowid (snippet() needs the match context). Every row
 * carries `ranked_n`, the window's fill, and a page with no hit is one row of nulls, so the caller
 * knows whether a larger window could find more. A trigram query of short words only has no MATCH
 * to rank by: its hits come newest first. Exported for the bench, which runs this very statement on
 * the database file (bench/search.bench.mjs).
 */
export function pageStatement(query: IndexQuery, opts: Omit<SearchOptions, "q">, window: number): SQL {
  const index = sql.raw(query.index);
  const rank = query.match ? bm25(query.index) : sql.raw("-rowid");
  const vertical = opts.vertical ? sql`and a.vertical = ${opts.vertical}` : sql``;
  const language = opts.language ? sql`and ${narratedIn(sql.raw("a.language"), opts.language)}` : sql``;
  return sql`
    with ranked as (
      select rowid as id, ${rank} as rank from ${index} f where ${found(query, "f", ["title", "summary", "body_text"])} order by rank limit ${window}),
    page as (
      select a.id, ranked.rank from ranked join articles a on a.id = ranked.id
      where a.visibility <> 'listener_private' ${vertical} ${language}
        and (a.visibility = 'public'
             or exists (select 1 from ${index} s where ${found(query, "s", ["title", "summary"])} and s.rowid = a.id))
      order by ranked.rank, a.id desc
      limit ${opts.limit} offset ${opts.offset})
    select (select count(*) from ranked) as ranked_n, hit.*
    from (select 1) left join (
      select page.rank, a.id, a.slug, a.title, a.publisher, a.vertical, a.url, a.visibility, a.summary, a.audio_key,
             a.listen_seconds, a.created_at, a.published_at,
             case when a.visibility = 'public'
                  then snippet(${index}, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 24)
                  else snippet(${index}, 0, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 24) end as snippet
      from ${index} f join articles a on a.id = f.rowid join page on page.id = f.rowid
      where ${found(query, "f", ["title", "summary", "body_text"])} and f.rowid in (select id from page)) hit
    order by hit.rank, hit.id desc`;
}

type PageRow = { ranked_n: number; id: number | null } & Record<string, unknown>;

/**
 * Local full-text search, best first. Public by construction: listener_private articles never
 * match. Stubs (publisher_only) are found by their title and summary only, and their snippet comes
 * from the title, so no withheld body text leaks through a snippet. A page that comes out short
 * while the window was full is asked again with a larger window, so the answer is exact, and a
 * common term matching most of the archive costs one BM25 pass instead of a join and a snippet per
 * match.
 */
export async function searchArticles(db: Database, opts: SearchOptions): Promise<SearchHit[]> {
  const query = indexQuery(opts.q);
  if (!query) return [];
  let window = Math.max(FIRST_WINDOW, (opts.offset + opts.limit) * 2) * (opts.vertical ? 8 : 1) * (opts.language ? 8 : 1);
  let rows: PageRow[];
  for (;;) {
    rows = await db.all<PageRow>(pageStatement(query, opts, window));
    const hits = rows.filter((r) => r.id !== null).length;
    if (hits === opts.limit || (rows[0]?.ranked_n ?? 0) < window) break;
    window *= WINDOW_GROWTH;
  }
  return rows.flatMap((r) => {
    if (r.id === null) return [];
    return [
      {
        slug: r.slug as string,
        title: r.title as string,
        publisher: r.publisher as string,
        vertical: r.vertical as string,
        url: r.url as string | null,
        visibility: r.visibility as SearchHit["visibility"],
        summary: r.summary as string,
        audioKey: r.audio_key as string | null,
        listenSeconds: r.listen_seconds as number | null,
        createdAt: new Date(r.created_at as number),
        publishedAt: r.published_at === null ? null : new Date(r.published_at as number),
        snippet: markSnippet(r.snippet as string),
        rank: r.rank as number,
      },
    ];
  });
}
