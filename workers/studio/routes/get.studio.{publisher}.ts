import * as v from "valibot";
import { database } from "../../db/index";
import { studioPage } from "../layout";
import { narrationsPage } from "../pages";
import { languagesOf, narrationsOf, STUDIO_STATES } from "../queries";

/** GET {WEB_URL}/studio/{publisher}?state=&language=: the publisher's narrations, newest first; a state or language it has none of lists all. */
export const getStudioNarrations = studioPage({
  method: "GET",
  path: "/studio/:publisher",
  summary: "A publisher's narrations",
  async handle({ env, url, studio }) {
    const given = v.safeParse(v.picklist(STUDIO_STATES), url.searchParams.get("state"));
    const db = database(env);
    const languages = await languagesOf(db, studio.publisher);
    const filter = {
      state: given.success ? given.output : undefined,
      language: languages.find((l) => l === url.searchParams.get("language")),
    };
    return narrationsPage(env, studio, await narrationsOf(db, studio.publisher, filter), filter, languages);
  },
});
