import * as v from "valibot";
import { database } from "../../db/index";
import { studioPage } from "../layout";
import { narrationsPage } from "../pages";
import { narrationsOf, STUDIO_STATES } from "../queries";

/** GET {WEB_URL}/studio/{publisher}?state=: the publisher's narrations, newest first. */
export const getStudioNarrations = studioPage({
  method: "GET",
  path: "/studio/:publisher",
  summary: "A publisher's narrations",
  async handle({ env, url, studio }) {
    const given = v.safeParse(v.picklist(STUDIO_STATES), url.searchParams.get("state"));
    const state = given.success ? given.output : undefined;
    return narrationsPage(env, studio, await narrationsOf(database(env), studio.publisher, state), state);
  },
});
