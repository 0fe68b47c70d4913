import { sql } from "drizzle-orm";
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
export function markSnippet(raw: string): string {
  return raw
    .replace(/[&<>"']/g, (c) => ESCAPES[c])
    .replaceAll(MARK_OPEN, "<mark>")
    .replaceAll(MARK_CLOSE, "</mark>");
}

// bm25 weights per column (title, summary, body_text): a title match counts ten times a body match.
const BM25 = sql.raw("bm25(articles_fts, 10.0, 4.0, 1.0)");

/**
 * Local full-text search, best first. Public by construction: listener_private articles never
 * match. Stubs (publisher_only) are found by their title and summary only, and their snippet comes
 * from the title, so no withheld body text leaks through a snippet.
 */
export async function searchArticles(
  db: Database,
  opts: { q: string; vertical?: string; limit: number; offset: number },
): Promise<SearchHit[]> {
  const match = matchExpression(opts.q);
  if (!match) return [];
  const vertical = opts.vertical ? sql`and a.vertical = ${opts.vertical}` : sql``;
  const stubMatch = `{title summary} : (${match})`;
  const rows = await db.all<Record<string, unknown>>(sql`
    select a.slug, a.title, a.publisher, a.vertical, a.url, a.visibility, a.summary, a.audio_key, a.listen_seconds,
           a.created_at, a.published_at,
           case when a.visibility = 'public'
                then snippet(articles_fts, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 24)
                else snippet(articles_fts, 0, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 24) end as snippet,
           ${BM25} as rank
    from articles_fts join articles a on a.id = articles_fts.rowid
    where articles_fts match ${match}
      and a.visibility <> 'listener_private' ${vertical}
      and (a.visibility = 'public' or a.id in (select rowid from articles_fts where articles_fts match ${stubMatch}))
    order by rank, a.id desc
    limit ${opts.limit} offset ${opts.offset}`);
  return rows.map((r) => ({
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
  }));
}
