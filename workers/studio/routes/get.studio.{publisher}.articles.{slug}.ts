import { database } from "../../db/index";
import { studioPage } from "../layout";
import { articlePage } from "../pages";
import { publisherArticle } from "../review";
import { ArticleParams } from "../schemas";

/** GET {WEB_URL}/studio/{publisher}/articles/{slug}: one narration, to hear and decide on. */
export const getStudioArticle = studioPage({
  method: "GET",
  path: "/studio/:publisher/articles/:slug",
  summary: "One narration in the studio",
  params: ArticleParams,
  async handle({ env, params, studio }) {
    return articlePage(env, studio, await publisherArticle(database(env), studio.publisher, params.slug));
  },
});
