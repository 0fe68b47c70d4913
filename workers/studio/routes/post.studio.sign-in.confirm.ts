import { page } from "../../web/page-route";
import { STUDIO_PATHS } from "../paths";
import { confirmStudioSignIn } from "../sign-in";
import { studioErrors } from "../studio-errors";

/** POST {WEB_URL}/studio/sign-in/confirm: spends the link and opens a studio session. */
export const postStudioSignInConfirm = page({
  method: "POST",
  path: STUDIO_PATHS.confirm,
  summary: "Spends a studio sign-in link and opens a session",
  auth: "none",
  renderErrors: studioErrors,
  handle: ({ request, env }) => confirmStudioSignIn(request, env),
});
