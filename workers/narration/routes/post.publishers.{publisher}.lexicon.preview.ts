import { lexiconPreview } from "../lexicon-preview";
import { publisherLexiconRoute } from "../publisher-lexicon-route";
import { PreviewBody } from "../lexicon-schemas";

export const previewPublisherLexicon = publisherLexiconRoute({
  method: "POST",
  path: "preview",
  summary: "Hear a sentence as the publisher's lexicon makes it sound",
  description:
    "Renders `text` (a sentence or two) in `voice` (the default voice when absent) through the publisher's lexicon over the global one, " +
    "and answers the MP3. 422 for an unknown voice; 503 when no engine can speak it now.",
  body: PreviewBody,
  responses: {
    200: { description: "The sentence, spoken", contentType: "audio/mpeg", headers: { "X-Voice": "the voice that spoke" } },
    503: { description: "No provider available for the voice", headers: { "Retry-After": "seconds" } },
  },
  handle: ({ env, scope, body }) => lexiconPreview(env, scope ?? "", body.text, body.voice),
});
