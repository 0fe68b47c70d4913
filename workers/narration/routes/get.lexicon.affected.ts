import { route } from "../../core/route";
import { AffectedView, affectedResponse } from "../lexicon-schemas";

export const getGlobalLexiconAffected = route({
  method: "GET",
  path: "/v1/lexicon/affected",
  tag: "narration",
  summary: "The narrated articles whose audio a change of the global lexicon touches",
  description:
    "The global lexicon applies to every narration; a publisher's own entries win over it. Requires the admin token (x-service-email-token). An article is listed when the entries that apply to its text, for the engine that spoke its audio, differ from those its render applied: " +
    "exactly the narrations a change re-renders. POST ...lexicon/rerender queues them.",
  auth: "admin",
  rateLimit: "admin",
  responses: { 200: { description: "The affected articles", schema: AffectedView } },
  async handle({ env }) {
    const scope = null;
    return affectedResponse(env, scope);
  },
});
