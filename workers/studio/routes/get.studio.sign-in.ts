import { page } from "../../web/page-route";
import { STUDIO_PATHS } from "../paths";
import { studioSignInPage } from "../sign-in";
import { studioErrors } from "../studio-errors";

/** GET {WEB_URL}/studio/sign-in?next=: the studio's sign-in form. */
export const getStudioSignIn = page({
  method: "GET",
  path: STUDIO_PATHS.signIn,
  summary: "The studio's sign-in form",
  auth: "none",
  renderErrors: studioErrors,
  handle: ({ env, url }) => studioSignInPage(env, url),
});
