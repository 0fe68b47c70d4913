import { page } from "../../web/page-route";
import { STUDIO_PATHS } from "../paths";
import { studioSignOut } from "../sign-in";
import { studioErrors } from "../studio-errors";

/** POST {WEB_URL}/studio/sign-out: ends the studio session. */
export const postStudioSignOut = page({
  method: "POST",
  path: STUDIO_PATHS.signOut,
  summary: "Signs out of the studio",
  auth: "studio",
  renderErrors: studioErrors,
  handle: ({ request, env, member }) => studioSignOut(request, env, member),
});
