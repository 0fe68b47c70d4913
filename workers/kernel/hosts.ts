/** The host personas: a published article may name one, and each has its own podcast feed. */
export const HOSTS = ["tech", "markets", "news", "health", "sports", "comedy"] as const;
