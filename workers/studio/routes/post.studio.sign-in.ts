import { page } from "../../web/page-route";
import { STUDIO_PATHS } from "../paths";
import { requestStudioSignIn } from "../sign-in";
import { studioErrors } from "../studio-errors";

/** POST {WEB_URL}/studio/sign-in: mails a member a sign-in link (the same answer for anyone). */
export const postStudioSignIn = page({
  method: "POST",
  path: STUDIO_PATHS.signIn,
  summary: "Asks for a studio sign-in link by e-mail",
  auth: "none",
  // It sends mail: the budget of the listeners' sign-in, which sends the same.
  rateLimit: "read",
  renderErrors: studioErrors,
  handle: ({ request, env, ctx }) => requestStudioSignIn(request, env, ctx),
});
