import { and, desc, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import { narratedIn } from "../kernel/language-filter";
import { trendingArticles } from "../kernel/trending";
import { narratedFor, shownInFull } from "../kernel/visibility";
import { articles, audioObjects, database, chunks } from "../db";
import { ofListener } from "../listeners/listener-articles";
import type { Listener } from "../kernel/listener-tokens";
import type { Selection } from "./catalog";

/** Most items in one feed: directories page through nothing, so the newest are what matters. */
const FEED_MAX_ITEMS = 1000;
/** Items of the all-trending feed: the top of the ranking. */
const TRENDING_ITEMS = 100;
/** One episode: an article whose MP3 exists, with the exact sizes the enclosure needs. */
export interface FeedItem {
  slug: string;
  title: string;
  summary: string;
  publisher: string;
  url: string | null;
  audioKey: string;
  /** Its article's visibility: a private item's enclosure is a capability URL (kernel/public-urls.ts). */
  visibility: string;
  mp3Bytes: number;
  opusBytes: number | null;
  durationSeconds: number;
  published: Date;
  /** Last change of the article row (a re-publish, a new render). */
  changed: Date;
  /** BCP 47 tag of the language it is narrated in: its transcripts say it. */
  language: string;
}

const itemColumns = {
  slug: articles.slug,
  title: articles.title,
  summary: articles.summary,
  publisher: articles.publisher,
  url: articles.url,
  language: articles.language,
  audioKey: audioObjects.key,
  visibility: articles.visibility,
  mp3Bytes: audioObjects.mp3Bytes,
  opusBytes: audioObjects.opusBytes,
  durationSeconds: audioObjects.durationSeconds,
  publishedAt: articles.publishedAt,
  createdAt: articles.createdAt,
  updatedAt: articles.updatedAt,
};

type Row = Omit<FeedItem, "published" | "changed" | "mp3Bytes"> & {
  mp3Bytes: number | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt?: Date | null;
};

function toItem({ publishedAt, createdAt, updatedAt, mp3Bytes, ...row }: Row): FeedItem {
  return { ...row, mp3Bytes: mp3Bytes!, published: publishedAt ?? createdAt, changed: updatedAt ?? createdAt };
}

/** Newest first, only articles whose MP3 is stored with its exact size (an enclosure needs it). */
async function newestReady(env: Pick<Env, "DB">, where: SQL, limit: number): Promise<FeedItem[]> {
  const rows = await database(env)
    .select(itemColumns)
    .from(articles)
    .innerJoin(audioObjects, eq(audioObjects.key, articles.audioKey))
    .where(and(where, isNotNull(audioObjects.mp3Bytes)))
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(limit);
  return rows.map(toItem);
}

function selectionWhere(selection: Exclude<Selection, { kind: "trending" }>): SQL {
  switch (selection.kind) {
    case "declassified":
      return eq(articles.declassified, true);
    case "creator":
      return eq(articles.creatorId, selection.creatorId);
    case "topic": {
      const parts: SQL[] = [];
      if (selection.hosts.length) parts.push(inArray(articles.host, selection.hosts));
      if (selection.verticals.length) parts.push(inArray(articles.vertical, selection.verticals));
      return or(...parts)!;
    }
  }
}

/**
 * The top of the trending ranking, public articles only, joined to their audio sizes, newest
 * first: scores drift every minute, so listing the top set by date keeps the bytes (and the
 * ETag) unchanged until the set itself changes.
 */
async function trendingReady(env: Pick<Env, "DB">): Promise<FeedItem[]> {
  const ranked = await trendingArticles(env, { limit: TRENDING_ITEMS, audioReadyOnly: true, excludeStubs: true });
  const keys = [...new Set(ranked.map((a) => a.audioKey!))];
  if (keys.length === 0) return [];
  const db = database(env);
  const [first, ...rest] = chunks(keys).map((part) => db.select().from(audioObjects).where(inArray(audioObjects.key, part)));
  const sizes = new Map((await db.batch([first, ...rest])).flat().map((o) => [o.key, o]));
  const items = ranked.flatMap((a) => {
    const audio = sizes.get(a.audioKey!);
    if (!audio || audio.mp3Bytes === null) return [];
    const { slug, title, summary, publisher, url, publishedAt, createdAt, visibility, language } = a;
    const { key: audioKey, mp3Bytes, opusBytes, durationSeconds } = audio;
    return [toItem({ slug, title, summary, publisher, url, publishedAt, createdAt, visibility, language, audioKey, mp3Bytes, opusBytes, durationSeconds })];
  });
  return items.sort((x, y) => y.published.getTime() - x.published.getTime());
}

/**
 * The episodes of a public feed: public articles with ready audio, never a stub or a private
 * article; with `language`, only those narrated in it (by primary subtag when it has no region).
 */
export function publicFeedItems(env: Pick<Env, "DB">, selection: Selection, language?: string): Promise<FeedItem[]> {
  if (selection.kind === "trending" && !language) return trendingReady(env);
  const where = selection.kind === "trending" ? undefined : selectionWhere(selection);
  return newestReady(env, and(shownInFull, where, language ? narratedIn(articles.language, language) : undefined)!, FEED_MAX_ITEMS);
}

/**
 * The articles a listener's private feed carries as episodes, with their transcripts: their verticals
 * (all when none is chosen) and the articles they forwarded, whose narration is theirs to have; another
 * listener's private article never matches (ofListener), nor a publisher_only stub (narratedFor).
 */
export function privateEpisodes(listener: Listener): SQL {
  return and(ofListener(listener), narratedFor(listener.id))!;
}

/** The episodes of a listener's private feed (privateEpisodes). */
export function privateFeedItems(env: Pick<Env, "DB">, listener: Listener): Promise<FeedItem[]> {
  return newestReady(env, privateEpisodes(listener), FEED_MAX_ITEMS);
}
