import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { releaseNarration } from "../review";
import { ArticleParams, ReviewView } from "../schemas";

export const releaseArticle = route({
  method: "POST",
  path: "/v1/publishers/:publisher/articles/:slug/release",
  tag: "publishers",
  summary: "Release a narration awaiting review to listeners",
  description:
    "The newest render of the article in state awaiting_review becomes done and the article's audio: its feeds, page, player, search result and agent tools then hand it out. " +
    "409 when none awaits review. Requires that publisher's API key or the operator's; another publisher's article is a 404.",
  auth: "api_key",
  params: ArticleParams,
  responses: { 200: { description: "Released", schema: ReviewView }, 409: { description: "No narration of the article awaits review" } },
  async handle({ env, caller, params }) {
    if (!mayActFor(caller, params.publisher)) throw new ApiError("not_found", `no article ${params.slug} of this publisher`);
    const job = await releaseNarration(env, params.publisher, params.slug);
    return Response.json({ slug: params.slug, job_id: job.id, state: "done", note: null }, { headers: { "Cache-Control": "no-store" } });
  },
});
