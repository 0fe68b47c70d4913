import { articles } from "../db";

/** The article columns every listing selects (trending, stories, feeds, a listener's feed and queue). */
export const listingColumns = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  publisher: articles.publisher,
  vertical: articles.vertical,
  summary: articles.summary,
  listenSeconds: articles.listenSeconds,
  createdAt: articles.createdAt,
};
