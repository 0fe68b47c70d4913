import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { rejectNarration } from "../review";
import { ArticleParams, RejectBody, ReviewView } from "../schemas";

export const rejectArticle = route({
  method: "POST",
  path: "/v1/publishers/:publisher/articles/:slug/reject",
  tag: "publishers",
  summary: "Reject a narration awaiting review, with a note",
  description:
    "The newest render of the article in state awaiting_review becomes rejected and stays out of every feed, page, player, search result and agent tool; " +
    "fix the text or the lexicon and render again. 409 when none awaits review. Requires that publisher's API key or the operator's; another publisher's article is a 404.",
  auth: "api_key",
  params: ArticleParams,
  body: RejectBody,
  responses: { 200: { description: "Rejected", schema: ReviewView }, 409: { description: "No narration of the article awaits review" } },
  async handle({ env, caller, params, body }) {
    if (!mayActFor(caller, params.publisher)) throw new ApiError("not_found", `no article ${params.slug} of this publisher`);
    const job = await rejectNarration(env, params.publisher, params.slug, body.note);
    return Response.json({ slug: params.slug, job_id: job.id, state: "rejected", note: job.reviewNote }, { headers: { "Cache-Control": "no-store" } });
  },
});
