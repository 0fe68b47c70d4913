import { rerenderAffected } from "../../narration/lexicon-service";
import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { publisherPath } from "../paths";

/** POST {WEB_URL}/studio/{publisher}/lexicon/rerender: an editor re-renders the articles the lexicon affects (their changed paragraphs only). */
export const postStudioLexiconRerender = studioPage({
  method: "POST",
  path: "/studio/:publisher/lexicon/rerender",
  summary: "Re-renders the articles the lexicon affects",
  role: "editor",
  async handle({ env, studio, requestId }) {
    await rerenderAffected(env, studio.publisher, requestId);
    return seeOther(publisherPath(studio.publisher, "/lexicon"));
  },
});
