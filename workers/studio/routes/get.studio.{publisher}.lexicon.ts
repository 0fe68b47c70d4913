import { affectedArticles, lexiconOf } from "../../narration/lexicon-service";
import { studioPage } from "../layout";
import { lexiconPage } from "../pages";

/** GET {WEB_URL}/studio/{publisher}/lexicon?text=&voice=: the lexicon; with `text`, a player that speaks it through the lexicon. */
export const getStudioLexicon = studioPage({
  method: "GET",
  path: "/studio/:publisher/lexicon",
  summary: "A publisher's lexicon",
  async handle({ env, url, studio }) {
    const text = url.searchParams.get("text")?.trim() ?? "";
    const hear = text ? { text, voice: url.searchParams.get("voice") ?? "" } : null;
    return lexiconPage(env, studio, await lexiconOf(env, studio.publisher), await affectedArticles(env, studio.publisher), hear);
  },
});
