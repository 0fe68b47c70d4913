import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db";

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
 * An FTS5 MATCH expression for free text: every term becomes a quoted string (inner quotes
 * doubled), so operators, column filters and unbalanced quotes in user input are plain text and
 * never a syntax error (FTS5 "Strings"). Terms are ANDed. Null when no term has a letter or digit.
 */
export function matchExpression(q: string): string | null {
  const terms = q.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** The snippet as safe HTML with <mark> around matched terms. */
function markSnippet(raw: string): string {
  return raw
    .replace(/[&<>"']/g, (c) => ESCAPES[c])
    .replaceAll(MARK_OPEN, "<mark>")
    .replaceAll(MARK_CLOSE, "</mark>");
}

// bm25 weights per column (title, summary, body_text): a title match counts ten times a body match.
const BM25 = sql.raw("bm25(articles_fts, 10.0, 4.0, 1.0)");

/** First ranking window; it grows fourfold while filters leave the page short and more matches exist. */
const FIRST_WINDOW = 200;
const WINDOW_GROWTH = 4;

export interface SearchOptions {
  q: string;
  vertical?: string;
  limit: number;
  offset: number;
}

/**
 * One page of hits for the FTS5 expression `match`, best first, in one statement. FTS5 ranks the
 * best `window` matches by BM25 alone (cheap: no join, no snippet); the filters run on that window
 * only, and snippets are made for the page only, matched again by rowid (snippet() needs the match
 * context). Every row carries `ranked_n`, the window's fill, and a page with no hit is one row of
 * nulls, so the caller knows whether a larger window could find more. Exported for the bench, which
 * runs this very statement on the database file (bench/search.bench.mjs).
 */
export function pageStatement(match: string, opts: Omit<SearchOptions, "q">, window: number): SQL {
  const stubMatch = `{title summary} : (${match})`;
  const vertical = opts.vertical ? sql`and a.vertical = ${opts.vertical}` : sql``;
  return sql`
    with ranked as (
      select rowid as id, ${BM25} as rank from articles_fts where articles_fts match ${match} order by rank limit ${window}),
    page as (
      select a.id, ranked.rank from ranked join articles a on a.id = ranked.id
      where a.visibility <> 'listener_private' ${vertical}
        and (a.visibility = 'public'
             or exists (select 1 from articles_fts s where s.articles_fts match ${stubMatch} and s.rowid = a.id))
      order by ranked.rank, a.id desc
      limit ${opts.limit} offset ${opts.offset})
    select (select count(*) from ranked) as ranked_n, hit.*
    from (select 1) left join (
      select page.rank, a.id, a.slug, a.title, a.publisher, a.vertical, a.url, a.visibility, a.summary, a.audio_key,
             a.listen_seconds, a.created_at, a.published_at,
             case when a.visibility = 'public'
                  then snippet(articles_fts, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 24)
                  else snippet(articles_fts, 0, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 24) end as snippet
      from articles_fts join articles a on a.id = articles_fts.rowid join page on page.id = articles_fts.rowid
      where articles_fts match ${match} and articles_fts.rowid in (select id from page)) hit
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
  const match = matchExpression(opts.q);
  if (!match) return [];
  let window = Math.max(FIRST_WINDOW, (opts.offset + opts.limit) * 2) * (opts.vertical ? 8 : 1);
  let rows: PageRow[];
  for (;;) {
    rows = await db.all<PageRow>(pageStatement(match, opts, window));
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
