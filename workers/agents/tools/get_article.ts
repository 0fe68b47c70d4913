import * as v from "valibot";
import { ArticleRecord, presentRecord } from "../../articles/present";
import { ApiError } from "../../core/errors";
import { database } from "../../db";
import { recentArticleBySlug } from "../../kernel/article-by-slug";
import { openableBy } from "../../kernel/visibility";
import { SlugField } from "./fields";
import { defineTool } from "./tool";

export const get_article = defineTool({
  name: "get_article",
  title: "Get an article",
  description:
    "The full record of one article by slug: title, publisher, vertical, summary, body_text, audio_url, listen_seconds. " +
    "Articles only shown as stubs (publisher_only) come without summary, body_text and audio_url. Free.",
  input: v.object({ slug: SlugField }),
  output: ArticleRecord,
  scope: "articles:read",
  budgetCost: 1,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, caller, env) {
    // A listener_private article of anyone but the acting listener answers like a missing one (docs/articles.md "Visibility": 404, not 403).
    const article = await recentArticleBySlug(database(env), input.slug);
    if (!article || !openableBy(article, caller.listenerId)) throw new ApiError("not_found", `no article ${input.slug}`);
    return presentRecord(env, article, caller.listenerId);
  },
});
