import * as v from "valibot";
import { ValidationError } from "../../core/errors";
import { writeEntries } from "../../narration/lexicon-service";
import { LexiconEntryInput } from "../../narration/lexicon-schemas";
import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { publisherPath } from "../paths";

/** POST {WEB_URL}/studio/{publisher}/lexicon: an editor adds an entry (or replaces that of the same word). */
export const postStudioLexicon = studioPage({
  method: "POST",
  path: "/studio/:publisher/lexicon",
  summary: "Adds a lexicon entry",
  role: "editor",
  async handle({ env, studio, field }) {
    const entry = v.safeParse(LexiconEntryInput, { grapheme: field("grapheme"), phoneme: field("phoneme") || null, alias: field("alias") || null });
    if (!entry.success)
      throw new ValidationError(entry.issues.map((i) => ({ loc: ["body", ...(i.path?.map((p) => String(p.key)) ?? [])], msg: i.message, type: "entry" })));
    await writeEntries(env, studio.publisher, [entry.output]);
    return seeOther(publisherPath(studio.publisher, "/lexicon"));
  },
});
