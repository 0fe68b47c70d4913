import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { articlePath } from "../paths";
import { releaseNarration } from "../review";
import { ArticleParams } from "../schemas";

/** POST {WEB_URL}/studio/{publisher}/articles/{slug}/release: an editor releases the narration awaiting review. */
export const postStudioRelease = studioPage({
  method: "POST",
  path: "/studio/:publisher/articles/:slug/release",
  summary: "Releases a narration awaiting review",
  params: ArticleParams,
  role: "editor",
  async handle({ env, params, studio }) {
    await releaseNarration(env, studio.publisher, params.slug);
    return seeOther(articlePath(studio.publisher, params.slug));
  },
});
