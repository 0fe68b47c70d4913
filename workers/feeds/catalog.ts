import { creatorFeedPath, serviceFeedPath } from "../kernel/public-urls";
import { canonicalPodcastVertical, PODCAST_VERTICALS } from "../kernel/verticals";
import type { HOSTS as HOST_SLUGS } from "../kernel/hosts";

/**
 * The public podcast feeds: one entry per stable URL of docs/rules.md "Rules" 4 "Podcast feeds" and the
 * articles each carries. Paths here are published to directories, so they never change (part 9).
 */

/** Which articles a feed carries; every public selection is further limited to public, ready audio. */
export type Selection =
  | { kind: "trending" }
  | { kind: "declassified" }
  /** Articles whose host persona or vertical is one of these slugs. */
  | { kind: "topic"; hosts: string[]; verticals: string[] }
  | { kind: "creator"; creatorId: number };

/** An Apple Podcasts category with an optional subcategory (https://podcasters.apple.com/support/1691-apple-podcasts-categories). */
export interface Category {
  text: string;
  sub?: string;
}

/** Everything the builder needs to know about one public feed. */
export interface FeedDefinition {
  /** Identity of the feed's durable snapshot; two URLs serving one feed share it. */
  key: string;
  /** Canonical path: the atom:link self, and the input of podcast:guid. */
  path: string;
  title: string;
  description: string;
  author: string;
  category: Category;
  /** Prompt of the square topic art (GET /v1/topic-art) used as itunes:image. */
  artPrompt: string;
  selection: Selection;
  /**
   * The one language of the feed's items (BCP 47), its channel <language>: `?language=de` on a public
   * feed (inLanguage). A feed without one lists every language and says en, as before languages.
   */
  language?: string;
}

/**
 * `feed` narrowed to the items of one language, by primary subtag when the tag has no region (`pt`
 * lists pt and pt-BR): its own snapshot and canonical path, and the newest such items (a language's
 * feed of the trending ranking would be thin; it lists the newest of the language).
 */
export function inLanguage(feed: FeedDefinition, language: string): FeedDefinition {
  const selection: Selection = feed.selection.kind === "trending" ? { kind: "topic", hosts: [], verticals: [] } : feed.selection;
  return { ...feed, key: `${feed.key}:${language}`, path: `${feed.path}?language=${encodeURIComponent(language)}`, selection, language };
}

interface Persona {
  title: string;
  description: string;
  category: Category;
}

type Host = (typeof HOST_SLUGS)[number];
/** Every slug with a service feed of its own: the hosts and the podcast verticals. */
type ServiceSlug = Host | Exclude<(typeof PODCAST_VERTICALS)[number], "trending">;

/** The six host personas (articles.host); each narrates the briefs of its beat. */
export const HOSTS: Record<Host, Persona> = {
  tech: { title: "Tech Briefs", description: "Technology news, read aloud by the tech host.", category: { text: "Technology" } },
  markets: {
    title: "Markets Briefs",
    description: "Markets and business news, read aloud by the markets host.",
    category: { text: "Business", sub: "Investing" },
  },
  news: { title: "News Briefs", description: "The day's news, read aloud by the news host.", category: { text: "News", sub: "Daily News" } },
  health: {
    title: "Health Briefs",
    description: "Health and medicine stories, read aloud by the health host.",
    category: { text: "Health & Fitness", sub: "Medicine" },
  },
  sports: { title: "Sports Briefs", description: "Sports stories, read aloud by the sports host.", category: { text: "Sports" } },
  comedy: { title: "Comedy Briefs", description: "The lighter side of the news, read aloud by the comedy host.", category: { text: "Comedy" } },
};

/** The podcast verticals that are not also a host (tech, health and news feeds merge both). */
const VERTICALS: Record<Exclude<ServiceSlug, Host>, Persona> = {
  young_moms: {
    title: "Parenting Briefs",
    description: "Stories for young parents, read aloud.",
    category: { text: "Kids & Family", sub: "Parenting" },
  },
  science: { title: "Science Briefs", description: "Science stories, read aloud.", category: { text: "Science" } },
  finance: { title: "Finance Briefs", description: "Personal finance and economy stories, read aloud.", category: { text: "Business", sub: "Investing" } },
};

/** One persona per service slug: the types make the lookup of serviceFeed total. */
const PERSONAS: Record<ServiceSlug, Persona> = { ...HOSTS, ...VERTICALS };

const AUTHOR = "Narration Service";

/** The all-trending feed; `service-trending.xml` serves the same feed. */
export const TRENDING_FEED: FeedDefinition = {
  key: "trending",
  path: "/v1/podcasts/service.xml",
  title: "Trending Stories",
  description: "The most listened-to stories right now, read aloud.",
  author: AUTHOR,
  category: { text: "News", sub: "Daily News" },
  artPrompt: "trending stories",
  selection: { kind: "trending" },
};

/** Declassified cases: articles flagged declassified. */
export const DECLASSIFIED_FEED: FeedDefinition = {
  key: "declassified",
  path: "/v1/podcasts/service-declassified.xml",
  title: "Declassified Cases",
  description: "Declassified files and the cases behind them, read aloud.",
  author: AUTHOR,
  category: { text: "Government" },
  artPrompt: "declassified cases",
  selection: { kind: "declassified" },
};

/**
 * The feed behind `/v1/podcasts/service-{slug}.xml`, or undefined (404). A host persona carries the
 * articles it hosts; a podcast vertical carries the articles of that vertical; a slug that is both
 * (tech, health, news) carries both. Aliases of the vertical catalog (parenting, ...) serve their
 * vertical's feed with its canonical path, so the feed keeps one identity (podcast:guid) whichever
 * URL a directory took.
 */
export function serviceFeed(slug: string): FeedDefinition | undefined {
  // A host slug keeps its own meaning: `markets` is the markets host, not the finance alias.
  const canonical = (Object.hasOwn(HOSTS, slug) ? slug : canonicalPodcastVertical(slug)) as ServiceSlug | "trending" | null;
  if (canonical === "trending") return TRENDING_FEED;
  if (canonical === null) return undefined;
  const persona = PERSONAS[canonical];
  // Everything below depends on the canonical slug only: every URL of one feed serves the same bytes.
  const isHost = Object.hasOwn(HOSTS, canonical);
  const isVertical = (PODCAST_VERTICALS as readonly string[]).includes(canonical);
  return {
    key: `service:${canonical}`,
    path: serviceFeedPath(canonical),
    ...persona,
    author: AUTHOR,
    artPrompt: `${canonical.replace(/_/g, " ")} stories`,
    selection: { kind: "topic", hosts: isHost ? [canonical] : [], verticals: isVertical ? [canonical] : [] },
  };
}

/** Snapshot key of the feed of creator tenant `slug`. */
export function creatorFeedKey(slug: string): string {
  return `creator:${slug}`;
}

/** The per-creator feed of the creator tenant `slug` (named `name`). */
export function creatorFeed(creator: { id: number; slug: string; name: string }): FeedDefinition {
  return {
    key: creatorFeedKey(creator.slug),
    path: creatorFeedPath(creator.slug),
    title: creator.name,
    description: `Stories by ${creator.name}, read aloud.`,
    author: creator.name,
    category: { text: "News" },
    artPrompt: `${creator.name} stories`,
    selection: { kind: "creator", creatorId: creator.id },
  };
}
