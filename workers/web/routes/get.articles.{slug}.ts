import { articlePage } from "../article-page";
import { page, SlugPath } from "../page-route";

/** GET {WEB_URL}/articles/{slug}: the article's page with its player and text. */
export const getArticlePage = page({
  method: "GET",
  path: "/articles/:slug",
  summary: "An article's page",
  auth: "none",
  params: SlugPath,
  handle: ({ env, params }) => articlePage(env, params.slug),
});
