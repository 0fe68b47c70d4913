import { ApiError } from "../../core/errors";
import { database } from "../../db/index";
import { VOICES } from "../../kernel/voice-catalogue";
import { createJob } from "../../narration/jobs-service";
import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { articlePath } from "../paths";
import { publisherArticle } from "../review";
import { ArticleParams } from "../schemas";

/**
 * POST {WEB_URL}/studio/{publisher}/articles/{slug}/rerender: an editor renders the article again,
 * in its own voice or another of the catalogue. Paragraphs whose audio is stored are reused, as for
 * any render; while review is on, the result waits for review like any other.
 */
export const postStudioRerender = studioPage({
  method: "POST",
  path: "/studio/:publisher/articles/:slug/rerender",
  summary: "Renders a narration again",
  params: ArticleParams,
  role: "editor",
  async handle({ env, ctx, params, studio, field, requestId }) {
    const voice = field("voice") || null;
    if (voice !== null && !VOICES.some((v) => v.id === voice)) throw new ApiError("validation_failed", "That is not a voice of the catalogue.");
    const article = await publisherArticle(database(env), studio.publisher, params.slug);
    await createJob(env, { articleId: article.id, listenerId: null, text: null, voice: voice ?? article.voice, priority: "normal", requestId }, ctx);
    return seeOther(articlePath(studio.publisher, params.slug));
  },
});
