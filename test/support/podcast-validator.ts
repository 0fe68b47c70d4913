import { parseRssFeed, type RssFeed } from "feedsmith";
import "./partytime-quiet";
// The parser alone: the package's entry also loads its feed fetcher (node-fetch), which workerd cannot.
import { parseFeed } from "podcast-partytime/dist/parser";
import { podcastGuid } from "../../workers/feeds/rss";

/**
 * A podcast feed validator: parses a feed with a standard parser (feedsmith) and checks the rules of
 * Apple Podcasts (https://podcasters.apple.com/support/823-podcast-requirements) and of the
 * Podcasting 2.0 namespace (https://podcastindex.org/namespace/1.0), channel and item by item.
 * It then reads the feed as the Podcast Index does (podcast-partytime), which skips tags it finds
 * incomplete, and reports what that parser did not read. It returns every problem found, so a
 * failing test names them all. Our feeds are of narrated items, so it also asks what every such
 * feed carries (docs/feeds.md "What every feed contains"): podcast:txt purpose="ai-content" on the channel, and on each item
 * the same podcast:txt, a WebVTT and a Podcasting 2.0 JSON transcript and podcast:chapters, as both parsers read them.
 */

/** Apple Podcasts categories and subcategories (https://podcasters.apple.com/support/1691-apple-podcasts-categories). */
export const APPLE_CATEGORIES: Record<string, string[]> = {
  Arts: ["Books", "Design", "Fashion & Beauty", "Food", "Performing Arts", "Visual Arts"],
  Business: ["Careers", "Entrepreneurship", "Investing", "Management", "Marketing", "Non-Profit"],
  Comedy: ["Comedy Interviews", "Improv", "Stand-Up"],
  Education: ["Courses", "How To", "Language Learning", "Self-Improvement"],
  Fiction: ["Comedy Fiction", "Drama", "Science Fiction"],
  Government: [],
  History: [],
  "Health & Fitness": ["Alternative Health", "Fitness", "Medicine", "Mental Health", "Nutrition", "Sexuality"],
  "Kids & Family": ["Education for Kids", "Parenting", "Pets & Animals", "Stories for Kids"],
  Leisure: ["Animation & Manga", "Automotive", "Aviation", "Crafts", "Games", "Hobbies", "Home & Garden", "Video Games"],
  Music: ["Music Commentary", "Music History", "Music Interviews"],
  News: ["Business News", "Daily News", "Entertainment News", "News Commentary", "Politics", "Sports News", "Tech News"],
  "Religion & Spirituality": ["Buddhism", "Christianity", "Hinduism", "Islam", "Judaism", "Religion", "Spirituality"],
  Science: ["Astronomy", "Chemistry", "Earth Sciences", "Life Sciences", "Mathematics", "Natural Sciences", "Nature", "Physics", "Social Sciences"],
  "Society & Culture": ["Documentary", "Personal Journals", "Philosophy", "Places & Travel", "Relationships"],
  Sports: [
    "Baseball",
    "Basketball",
    "Cricket",
    "Fantasy Sports",
    "Football",
    "Golf",
    "Hockey",
    "Rugby",
    "Running",
    "Soccer",
    "Swimming",
    "Tennis",
    "Volleyball",
    "Wilderness",
    "Wrestling",
  ],
  Technology: [],
  "True Crime": [],
  "TV & Film": ["After Shows", "Film History", "Film Interviews", "Film Reviews", "TV Reviews"],
};

/** Transcript types the Podcasting 2.0 podcast:transcript tag lists. */
const TRANSCRIPT_TYPES = new Set(["text/plain", "text/html", "text/vtt", "application/json", "application/x-subrip", "application/srt"]);
/** Every narrated item has both (docs/feeds.md "What every feed contains"): captions, and word-timed JSON. */
const NARRATED_TRANSCRIPTS = ["text/vtt", "application/json"];
/** The media type of JSON chapters (podcast:chapters). */
const CHAPTERS_TYPE = "application/json+chapters";
/** podcast:txt's purpose for content made by AI (Podcasting 2.0, March 2026). */
const AI_CONTENT = "ai-content";
/** Apple's limit on show and episode descriptions. */
const MAX_DESCRIPTION = 4000;
const ITUNES_NS = 'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"';
const PODCAST_NS = 'xmlns:podcast="https://podcastindex.org/namespace/1.0"';
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RFC2822_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/;

export interface ValidationOptions {
  /** The feed must say podcast:locked yes (private feeds) or no (public ones). */
  locked: boolean;
  /** Artwork URLs of the service carry w and h: check the size rule on them. */
  checkArtworkSize?: boolean;
}

export interface ValidationResult {
  feed: RssFeed.Feed<string> | null;
  problems: string[];
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** Apple: square artwork of 1400 to 3000 px (read from the service's w and h parameters). */
function artworkProblems(href: string): string[] {
  const url = new URL(href);
  const w = Number(url.searchParams.get("w"));
  const h = Number(url.searchParams.get("h"));
  if (w !== h) return [`itunes:image is not square (${w}x${h})`];
  if (w < 1400 || w > 3000) return [`itunes:image is ${w}px; Apple requires 1400 to 3000`];
  return [];
}

function channelProblems(xml: string, feed: RssFeed.Feed<string>, opts: ValidationOptions): string[] {
  const p: string[] = [];
  if (!/<rss[^>]*\bversion="2\.0"/.test(xml)) p.push('root is not <rss version="2.0">');
  if (!xml.includes(ITUNES_NS)) p.push("iTunes namespace not declared");
  if (!xml.includes(PODCAST_NS)) p.push("Podcasting 2.0 namespace not declared");
  if (!nonEmpty(feed.title)) p.push("channel title missing");
  if (!nonEmpty(feed.description)) p.push("channel description missing");
  else if (feed.description.length > MAX_DESCRIPTION) p.push("channel description over 4000 characters");
  if (!nonEmpty(feed.language) || !/^[a-z]{2,3}(-[A-Za-z]{2,})?$/.test(feed.language)) p.push("channel language missing or not ISO 639");
  if (!isHttpUrl(feed.link)) p.push("channel link missing or not a URL");
  const self = feed.atom?.links?.find((l) => l.rel === "self")?.href;
  if (!isHttpUrl(self)) p.push("atom:link rel=self missing");

  const itunes = feed.itunes;
  if (!nonEmpty(itunes?.author)) p.push("itunes:author missing");
  if (!isHttpUrl(itunes?.image)) p.push("itunes:image missing or not a URL");
  else if (opts.checkArtworkSize) p.push(...artworkProblems(itunes!.image!));
  const categories = itunes?.categories ?? [];
  if (categories.length === 0) p.push("itunes:category missing");
  for (const c of categories) {
    const subs = c.text ? APPLE_CATEGORIES[c.text] : undefined;
    if (!subs) p.push(`itunes:category "${c.text}" is not an Apple category`);
    for (const sub of c.categories ?? []) {
      if (subs && !subs.includes(sub.text ?? "")) p.push(`itunes:category "${c.text}" has no subcategory "${sub.text}"`);
    }
  }
  // Apple documents true/false; the parser accepts yes/no too, so read the raw channel value.
  const channelHead = xml.slice(0, xml.indexOf("<item>") === -1 ? undefined : xml.indexOf("<item>"));
  const explicit = /<itunes:explicit>([^<]*)<\/itunes:explicit>/.exec(channelHead)?.[1];
  if (explicit !== "true" && explicit !== "false") p.push(`channel itunes:explicit is "${explicit}", not true or false`);

  const guid = feed.podcast?.guid;
  if (!guid || !UUID_V5.test(guid)) p.push("podcast:guid missing or not a UUIDv5");
  else if (self && guid !== podcastGuid(self)) p.push("podcast:guid is not UUIDv5 of the feed URL");
  const locked = /<podcast:locked[^>]*>([^<]*)<\/podcast:locked>/.exec(xml)?.[1];
  if (locked !== (opts.locked ? "yes" : "no")) p.push(`podcast:locked is "${locked}", expected ${opts.locked ? "yes" : "no"}`);
  // Podcasting 2.0 podcast:txt, purpose "ai-content": the feed's word that its voices are synthetic.
  if (!(feed.podcast?.txts ?? []).some((t) => t.purpose === AI_CONTENT && t.display === "true")) p.push('podcast:txt purpose="ai-content" true missing');
  return p;
}

function itemProblems(item: RssFeed.Item<string>, rawItem: string, n: number): string[] {
  const p: string[] = [];
  const at = `item ${n} (${item.title ?? "untitled"})`;
  if (!nonEmpty(item.title)) p.push(`${at}: title missing`);
  if (!nonEmpty(item.description)) p.push(`${at}: description missing`);
  else if (item.description.length > MAX_DESCRIPTION) p.push(`${at}: description over 4000 characters`);
  if (!nonEmpty(item.guid?.value)) p.push(`${at}: guid missing`);
  if (!item.pubDate || !RFC2822_DATE.test(item.pubDate) || Number.isNaN(Date.parse(item.pubDate))) p.push(`${at}: pubDate missing or not RFC 2822`);
  const enclosures = item.enclosures ?? [];
  if (enclosures.length !== 1) p.push(`${at}: expected exactly one enclosure, found ${enclosures.length}`);
  for (const e of enclosures) {
    if (!isHttpUrl(e.url)) p.push(`${at}: enclosure url is not a URL`);
    if (!Number.isInteger(e.length) || e.length! <= 0) p.push(`${at}: enclosure length is not a positive byte count`);
    if (e.type !== "audio/mpeg") p.push(`${at}: enclosure type ${e.type}, expected audio/mpeg`);
  }
  const duration = item.itunes?.duration;
  if (!Number.isInteger(duration) || duration! <= 0) p.push(`${at}: itunes:duration missing or not whole seconds`);
  const explicit = /<itunes:explicit>([^<]*)<\/itunes:explicit>/.exec(rawItem)?.[1];
  if (explicit !== undefined && explicit !== "true" && explicit !== "false") p.push(`${at}: itunes:explicit is "${explicit}"`);
  // Each episode says its voice is synthetic too (the Podcast Standards Project's AI-disclosure proposal).
  if (!(item.podcast?.txts ?? []).some((t) => t.purpose === AI_CONTENT && t.display === "true")) p.push(`${at}: podcast:txt purpose="ai-content" true missing`);
  const transcripts = item.podcast?.transcripts ?? [];
  if (transcripts.length === 0) p.push(`${at}: podcast:transcript missing`);
  for (const t of transcripts) {
    if (!isHttpUrl(t.url)) p.push(`${at}: podcast:transcript url is not a URL`);
    if (!t.type || !TRANSCRIPT_TYPES.has(t.type)) p.push(`${at}: podcast:transcript type ${t.type} is not allowed`);
  }
  for (const type of NARRATED_TRANSCRIPTS) if (!transcripts.some((t) => t.type === type)) p.push(`${at}: no podcast:transcript of type ${type}`);
  const chapters = item.podcast?.chapters;
  if (!chapters) p.push(`${at}: podcast:chapters missing`);
  else {
    if (!isHttpUrl(chapters.url)) p.push(`${at}: podcast:chapters url is not a URL`);
    if (chapters.type !== CHAPTERS_TYPE) p.push(`${at}: podcast:chapters type ${chapters.type}, expected ${CHAPTERS_TYPE}`);
  }
  for (const alt of item.podcast?.alternateEnclosures ?? []) {
    if (!nonEmpty(alt.type)) p.push(`${at}: podcast:alternateEnclosure type missing`);
    if (!Number.isInteger(alt.length) || alt.length! <= 0) p.push(`${at}: podcast:alternateEnclosure length is not a positive byte count`);
    if (!alt.sources?.length || !alt.sources.every((s) => isHttpUrl(s.uri))) p.push(`${at}: podcast:alternateEnclosure needs a podcast:source uri`);
  }
  return p;
}

/** What podcast-partytime, the Podcast Index's parser, reads differently from feedsmith's reading. */
function partytimeProblems(xml: string, feed: RssFeed.Feed<string>, opts: ValidationOptions): string[] {
  const read = parseFeed(xml);
  if (!read) return ["podcast-partytime cannot parse the feed"];
  const p: string[] = [];
  // It reads podcast:locked only with its owner attribute (an e-mail address).
  if (read.locked !== opts.locked) p.push(`podcast-partytime reads podcast:locked as ${read.locked}, expected ${opts.locked}`);
  if (!nonEmpty(read.podcastOwner)) p.push("podcast-partytime reads no podcast:locked owner");
  const items = feed.items ?? [];
  if (read.items.length !== items.length) p.push(`podcast-partytime reads ${read.items.length} items of ${items.length}`);
  if (!(read.podcastTxt ?? []).some((t) => t.purpose === AI_CONTENT && t.value === "true"))
    p.push('podcast-partytime reads no podcast:txt purpose="ai-content" true');
  items.forEach((item, i) => {
    const at = `item ${i + 1} (${item.title ?? "untitled"})`;
    const mine = read.items.find((r) => r.guid === item.guid?.value);
    const expected = item.podcast?.alternateEnclosures?.length ?? 0;
    const got = mine?.alternativeEnclosures?.length ?? 0;
    if (got !== expected) p.push(`${at}: podcast-partytime reads ${got} of ${expected} podcast:alternateEnclosure`);
    for (const type of NARRATED_TRANSCRIPTS) {
      if (!(mine?.podcastTranscripts ?? []).some((t) => t.type === type && isHttpUrl(t.url)))
        p.push(`${at}: podcast-partytime reads no ${type} podcast:transcript`);
    }
    if (!mine?.podcastChapters || !isHttpUrl(mine.podcastChapters.url) || mine.podcastChapters.type !== CHAPTERS_TYPE)
      p.push(`${at}: podcast-partytime reads no podcast:chapters`);
  });
  return p;
}

/** Parses `xml` and checks it as a podcast feed. */
export function validatePodcastFeed(xml: string, opts: ValidationOptions): ValidationResult {
  let feed: RssFeed.Feed<string>;
  try {
    feed = parseRssFeed(xml) as RssFeed.Feed<string>;
  } catch (err) {
    return { feed: null, problems: [`not a parseable RSS feed: ${(err as Error).message}`] };
  }
  const problems = channelProblems(xml, feed, opts);
  const rawItems = xml.split("<item>").slice(1);
  const items = feed.items ?? [];
  for (const [i, item] of items.entries()) problems.push(...itemProblems(item, rawItems[i] ?? "", i + 1));
  const guids = items.map((i) => i.guid?.value);
  if (new Set(guids).size !== guids.length) problems.push("item guids are not unique");
  problems.push(...partytimeProblems(xml, feed, opts));
  return { feed, problems };
}
