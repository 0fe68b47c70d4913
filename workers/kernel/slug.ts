/** Kebab-case slugs for articles published without one. */

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 120;
/** Derived slugs stay shorter than the maximum, leaving room for a "-<n>" suffix. */
const DERIVED_LENGTH = 80;

/** "Why Your Café Costs €5!" → "why-your-cafe-costs-5"; accents folded, everything else a dash. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, DERIVED_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug || "article";
}

/** The n-th candidate for a derived slug: the base, then base-2, base-3, ... */
export function slugCandidate(base: string, n: number): string {
  return n === 1 ? base : `${base}-${n}`;
}
