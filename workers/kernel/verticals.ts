/**
 * The listener vertical catalog (docs/rules.md "Rules" 2, "Known vertical slugs"), shared by the listener
 * endpoints and the podcast feeds. Aliases are accepted on input and stored as their canonical slug.
 */

export interface Vertical {
  slug: string;
  label: string;
  /** Other names accepted on input: the public alias parenting and legacy slugs of older clients. */
  aliases: readonly string[];
}

/** Every vertical a listener may follow: the agent-tool verticals plus the podcast verticals. */
export const LISTENER_VERTICALS: readonly Vertical[] = [
  { slug: "tech", label: "Technology", aliases: ["technology"] },
  { slug: "finance", label: "Finance and markets", aliases: ["markets", "business"] },
  { slug: "science", label: "Science", aliases: [] },
  { slug: "media", label: "Media", aliases: [] },
  { slug: "sports", label: "Sports", aliases: ["sport"] },
  { slug: "culture", label: "Culture", aliases: ["entertainment"] },
  { slug: "health", label: "Health", aliases: ["wellness"] },
  { slug: "young_moms", label: "Young moms", aliases: ["parenting", "moms", "young-moms"] },
  { slug: "news", label: "News", aliases: ["world", "politics"] },
];

/** The podcast verticals with a per-vertical feed; `trending` is virtual: the all-trending feed serves it. */
export const PODCAST_VERTICALS = ["tech", "health", "young_moms", "science", "finance", "news", "trending"] as const;

const CANONICAL = new Map<string, string>(LISTENER_VERTICALS.flatMap((v) => [[v.slug, v.slug] as const, ...v.aliases.map((a) => [a, v.slug] as const)]));

/** The canonical slug of a listener vertical or one of its aliases (case-insensitive), or null if unknown. */
export function canonicalVertical(input: string): string | null {
  return CANONICAL.get(input.trim().toLowerCase()) ?? null;
}

/** The canonical podcast vertical for a feed path segment (`parenting` is `young_moms`), or null. */
export function canonicalPodcastVertical(input: string): string | null {
  const slug = input === "trending" ? "trending" : canonicalVertical(input);
  return slug !== null && (PODCAST_VERTICALS as readonly string[]).includes(slug) ? slug : null;
}

/** A vertical's name for people ("Finance and markets"); an unknown slug reads as its words. */
export function verticalLabel(slug: string): string {
  const canonical = canonicalVertical(slug);
  return LISTENER_VERTICALS.find((v) => v.slug === canonical)?.label ?? slug.replace(/[_-]/g, " ");
}
