import { ApiError } from "../../core/errors";
import { database } from "../../db/index";
import { audioObjectPath } from "../../kernel/audio-objects";
import { studioPage } from "../layout";
import { audioToReview } from "../queries";
import { publisherArticle } from "../review";
import { ArticleParams } from "../schemas";

/**
 * GET {WEB_URL}/studio/{publisher}/articles/{slug}/audio: the MP3 the article page plays, held for
 * review or not, to the publisher's members only (the public audio path refuses a held key to anyone
 * without the publisher's key: narration/audio-access.ts). Never cached outside the browser.
 */
export const getStudioArticleAudio = studioPage({
  method: "GET",
  path: "/studio/:publisher/articles/:slug/audio",
  summary: "The audio of a narration, for the publisher's members",
  params: ArticleParams,
  async handle({ env, params, studio }) {
    const db = database(env);
    const key = await audioToReview(db, await publisherArticle(db, studio.publisher, params.slug));
    const object = key ? await env.AUDIO.get(audioObjectPath(key, "mp3")) : null;
    if (!object) throw new ApiError("not_found", "This narration has no audio yet.");
    return new Response(object.body, {
      headers: { "Content-Type": "audio/mpeg", "Content-Length": String(object.size), "Cache-Control": "private, no-store" },
    });
  },
});
