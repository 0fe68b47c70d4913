import { page } from "../../web/page-route";
import { membershipsOf } from "../members";
import { homePage } from "../pages";
import { STUDIO_PATHS } from "../paths";
import { studioErrors } from "../studio-errors";

/** GET {WEB_URL}/studio: where sign-in lands, the publishers the member may open. */
export const getStudio = page({
  method: "GET",
  path: STUDIO_PATHS.home,
  summary: "The studio's home: the member's publishers",
  auth: "studio",
  renderErrors: studioErrors,
  handle: async ({ env, member }) => homePage(env, member, await membershipsOf(env, member.email)),
});
