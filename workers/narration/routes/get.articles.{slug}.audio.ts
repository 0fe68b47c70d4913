import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { database } from "../../db/index";
import { listenerByToken } from "../../kernel/listener-tokens";
import { articleFor, audioState } from "../article-audio-service";
import { ArticleAudio } from "../article-audio-view";

export const getArticleAudio = route({
  method: "GET",
  path: "/v1/articles/:slug/audio",
  tag: "narration",
  summary: "Polling path of render-now: the article's audio state and URLs",
  description:
    "Public. state is done (with the audio URLs and listen_seconds), queued, running, failed, cancelled, or none " +
    "when the article was never rendered. A listener-private article answers only with its owner's listener_token; a publisher_only stub answers 404 " +
    "(its audio reaches only its publisher and the operator, through GET /v1/jobs/{job_id}).",
  auth: "none",
  rateLimit: "read",
  params: v.object({ slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Article slug.")) }),
  query: v.object({
    listener_token: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("Only for a listener-private article: its owner's token."))),
  }),
  responses: {
    200: { description: "The audio state", schema: ArticleAudio },
    404: { description: "Unknown article, another listener's private article, or a publisher_only stub" },
  },
  async handle({ env, params, query }) {
    const db = database(env);
    const listener = query.listener_token ? await listenerByToken(db, query.listener_token) : undefined;
    const article = await articleFor(db, params.slug, listener?.id ?? null);
    if (!article) throw new ApiError("not_found", "no article with that slug");
    return Response.json(await audioState(env, db, article), { headers: { "Cache-Control": "no-store" } });
  },
});
