import * as v from "valibot";
import { ValidationError } from "../../core/errors";
import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { articlePath } from "../paths";
import { rejectNarration } from "../review";
import { ArticleParams, RejectBody } from "../schemas";

/** POST {WEB_URL}/studio/{publisher}/articles/{slug}/reject: an editor rejects the narration awaiting review, with a note. */
export const postStudioReject = studioPage({
  method: "POST",
  path: "/studio/:publisher/articles/:slug/reject",
  summary: "Rejects a narration awaiting review",
  params: ArticleParams,
  role: "editor",
  async handle({ env, params, studio, field }) {
    const body = v.safeParse(RejectBody, { note: field("note") });
    if (!body.success) throw new ValidationError([{ loc: ["body", "note"], msg: "say why it is rejected", type: "note" }]);
    await rejectNarration(env, studio.publisher, params.slug, body.output.note);
    return seeOther(articlePath(studio.publisher, params.slug));
  },
});
