import { and, asc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { ValidationError } from "../core/errors";
import { ACTIVE_JOB_STATES, articles, audioObjects, database, lexiconEntries, renderJobs } from "../db";
import { narratedText } from "../kernel/article-text";
import { entriesFor, lexiconDigest, mergeLexicons, type LexiconEntry } from "../kernel/lexicon";
import { keyedParagraphs } from "../kernel/normalize-text";
import { PROVIDERS, type ProviderId } from "../kernel/voice-catalogue";
import { createJob } from "./jobs-service";

/**
 * The pronunciation lexicon (docs/narration-api.md "Pronunciation lexicon"): the global one and one per publisher,
 * stored in lexicon_entries (publisher "" is the global one). The render Worker reads it through
 * RenderStore.lexiconFor; a change re-renders exactly the narrations whose applicable entries it
 * changes (affectedArticles, rerenderAffected), since those entries are part of the cache key.
 */

/** The scope of a lexicon: a publisher, or null for the global lexicon. */
export type LexiconScope = string | null;

/** The most entries one lexicon holds: every render reads its publisher's and the global one whole. */
export const MAX_LEXICON_ENTRIES = 2000;
/** The most articles one re-render request queues; call again for the rest. */
export const MAX_RERENDERS_PER_REQUEST = 100;

type DbEnv = Pick<Env, "DB">;

/** Five values a row (publisher, grapheme, phoneme, alias, updated_at) within D1's 100 per statement. */
const ROWS_PER_INSERT = 16;

const scopeKey = (scope: LexiconScope) => scope ?? "";

/** The entries of one lexicon, by grapheme. */
export async function lexiconOf(env: DbEnv, scope: LexiconScope): Promise<LexiconEntry[]> {
  return database(env)
    .select({ grapheme: lexiconEntries.grapheme, phoneme: lexiconEntries.phoneme, alias: lexiconEntries.alias })
    .from(lexiconEntries)
    .where(eq(lexiconEntries.publisher, scopeKey(scope)))
    .orderBy(asc(lexiconEntries.grapheme));
}

/** What applies to `publisher`'s narrations: the global lexicon with the publisher's entries over it (RenderStore.lexiconFor). */
export async function lexiconFor(env: DbEnv, publisher: string | null): Promise<LexiconEntry[]> {
  const rows = await database(env)
    .select({ publisher: lexiconEntries.publisher, grapheme: lexiconEntries.grapheme, phoneme: lexiconEntries.phoneme, alias: lexiconEntries.alias })
    .from(lexiconEntries)
    .where(inArray(lexiconEntries.publisher, publisher ? ["", publisher] : [""]));
  const entry = ({ grapheme, phoneme, alias }: LexiconEntry) => ({ grapheme, phoneme, alias });
  return mergeLexicons(rows.filter((r) => r.publisher === "").map(entry), rows.filter((r) => r.publisher !== "").map(entry));
}

/** The last entry given for each grapheme (an import may repeat one). */
function lastPerGrapheme(entries: readonly LexiconEntry[]): LexiconEntry[] {
  return [...new Map(entries.map((e) => [e.grapheme, e])).values()];
}

/**
 * Adds or replaces entries by grapheme; with `replace`, the lexicon becomes exactly `entries`. One D1
 * batch, so a refused write changes nothing. 422 past MAX_LEXICON_ENTRIES.
 */
export async function writeEntries(env: DbEnv, scope: LexiconScope, given: readonly LexiconEntry[], replace = false): Promise<void> {
  const db = database(env);
  const entries = lastPerGrapheme(given);
  const existing = replace ? [] : await lexiconOf(env, scope);
  const total = new Set([...existing.map((e) => e.grapheme), ...entries.map((e) => e.grapheme)]).size;
  if (total > MAX_LEXICON_ENTRIES) {
    throw new ValidationError([
      { loc: ["body"], msg: `a lexicon holds at most ${MAX_LEXICON_ENTRIES} entries; this would make it ${total}`, type: "too_many_entries" },
    ]);
  }
  const publisher = scopeKey(scope);
  const now = new Date();
  // D1 binds at most 100 values to a statement: rows go in statements of ROWS_PER_INSERT.
  const upserts = Array.from({ length: Math.ceil(entries.length / ROWS_PER_INSERT) }, (_, i) =>
    db
      .insert(lexiconEntries)
      .values(entries.slice(i * ROWS_PER_INSERT, (i + 1) * ROWS_PER_INSERT).map((e) => ({ publisher, ...e, updatedAt: now })))
      .onConflictDoUpdate({
        target: [lexiconEntries.publisher, lexiconEntries.grapheme],
        set: { phoneme: sql`excluded.phoneme`, alias: sql`excluded.alias`, updatedAt: sql`excluded.updated_at` },
      }),
  );
  const clear = replace ? [db.delete(lexiconEntries).where(eq(lexiconEntries.publisher, publisher))] : [];
  const statements = [...clear, ...upserts];
  if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** Removes the entries of `graphemes`; how many there were. */
export async function deleteEntries(env: DbEnv, scope: LexiconScope, graphemes: readonly string[]): Promise<number> {
  const removed = await database(env)
    .delete(lexiconEntries)
    .where(and(eq(lexiconEntries.publisher, scopeKey(scope)), inArray(lexiconEntries.grapheme, [...graphemes])))
    .returning({ id: lexiconEntries.id });
  return removed.length;
}

/** An article whose narration a lexicon change touches. */
export interface AffectedArticle {
  slug: string;
  publisher: string;
  title: string;
  /** The audio it has now. */
  audioKey: string;
  provider: string;
  voice: string;
  /** The graphemes of the entries that would apply to it now (none: an entry that applied is gone). */
  graphemes: string[];
  /** True while a render of it is queued or running. */
  rendering: boolean;
}

const PAGE = 200;

/**
 * The articles with audio whose narration the lexicon no longer matches: the entries that would
 * apply to its text for the engine that spoke it (kernel/lexicon.ts entriesFor) differ from those the
 * render applied (audio_objects.lexicon_digest). `publisher` limits them to one publisher's; null
 * looks at every article (a global entry touches every publisher). Articles are read a page at a time.
 */
export async function affectedArticles(env: DbEnv, publisher: LexiconScope): Promise<AffectedArticle[]> {
  const db = database(env);
  const lexicons = new Map<string, Promise<LexiconEntry[]>>();
  const lexiconOfPublisher = (p: string) => {
    let l = lexicons.get(p);
    if (!l) lexicons.set(p, (l = lexiconFor(env, p)));
    return l;
  };
  const affected: AffectedArticle[] = [];
  for (let after = 0; ; ) {
    const page = await db
      .select({
        id: articles.id,
        slug: articles.slug,
        publisher: articles.publisher,
        title: articles.title,
        bodyText: articles.bodyText,
        audioKey: audioObjects.key,
        provider: audioObjects.provider,
        voice: audioObjects.voice,
        digest: audioObjects.lexiconDigest,
      })
      .from(articles)
      .innerJoin(audioObjects, eq(audioObjects.key, articles.audioKey))
      .where(and(gt(articles.id, after), isNotNull(articles.audioKey), publisher === null ? undefined : eq(articles.publisher, publisher)))
      .orderBy(asc(articles.id))
      .limit(PAGE);
    for (const row of page) {
      const mode = PROVIDERS[row.provider as ProviderId]?.lexicon;
      if (!mode) continue; // audio of no engine of ours (a sponsor's pre-roll)
      const applicable = entriesFor(await lexiconOfPublisher(row.publisher), keyedParagraphs(narratedText(row)).join("\n"), mode);
      if ((await lexiconDigest(applicable)) === row.digest) continue;
      affected.push({
        slug: row.slug,
        publisher: row.publisher,
        title: row.title,
        audioKey: row.audioKey,
        provider: row.provider,
        voice: row.voice,
        graphemes: applicable.map((e) => e.grapheme),
        rendering: false,
      });
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].id;
  }
  if (affected.length > 0) {
    const busy = await db
      .select({ slug: articles.slug })
      .from(renderJobs)
      .innerJoin(articles, eq(articles.id, renderJobs.articleId))
      .where(and(inArray(renderJobs.state, ACTIVE_JOB_STATES), publisher === null ? undefined : eq(articles.publisher, publisher)));
    const rendering = new Set(busy.map((b) => b.slug));
    for (const a of affected) a.rendering = rendering.has(a.slug);
  }
  return affected;
}

/**
 * Queues a render of each affected article not already rendering, at most MAX_RERENDERS_PER_REQUEST,
 * in the article's own voice: the next render applies the lexicon as it is now. The rest are left for
 * the next request.
 */
export async function rerenderAffected(env: Pick<Env, "DB" | "RENDER_QUEUE">, publisher: LexiconScope, requestId: string) {
  const affected = (await affectedArticles(env, publisher)).filter((a) => !a.rendering);
  const now = affected.slice(0, MAX_RERENDERS_PER_REQUEST);
  const db = database(env);
  const queued: { slug: string; job_id: string }[] = [];
  for (const article of now) {
    const row = await db.query.articles.findFirst({ columns: { id: true, voice: true }, where: eq(articles.slug, article.slug) });
    if (!row) continue;
    const job = await createJob(env, { articleId: row.id, listenerId: null, text: null, voice: row.voice, priority: "normal", requestId });
    queued.push({ slug: article.slug, job_id: job.id });
  }
  return { queued, remaining: affected.length - now.length };
}
