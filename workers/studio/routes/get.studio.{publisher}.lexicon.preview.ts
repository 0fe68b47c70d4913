import * as v from "valibot";
import { ValidationError } from "../../core/errors";
import { lexiconPreview } from "../../narration/lexicon-preview";
import { PreviewBody } from "../../narration/lexicon-schemas";
import { studioPage } from "../layout";

/**
 * GET {WEB_URL}/studio/{publisher}/lexicon/preview?text=&voice=: the "hear it" player's source, the
 * text through the publisher's lexicon (as POST /v1/publishers/{publisher}/lexicon/preview). A GET,
 * since an <audio> element fetches its source so; it changes nothing but the render cache.
 */
export const getStudioLexiconPreview = studioPage({
  method: "GET",
  path: "/studio/:publisher/lexicon/preview",
  summary: "Hear a sentence through the lexicon",
  async handle({ env, url, studio }) {
    const body = v.safeParse(PreviewBody, { text: url.searchParams.get("text") ?? "", voice: url.searchParams.get("voice") || undefined });
    if (!body.success)
      throw new ValidationError([{ loc: ["query", "text"], msg: "a sentence of at most 500 characters, and a voice of the catalogue", type: "preview" }]);
    return lexiconPreview(env, studio.publisher, body.output.text, body.output.voice);
  },
});
