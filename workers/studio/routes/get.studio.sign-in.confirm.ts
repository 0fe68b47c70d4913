import { page } from "../../web/page-route";
import { STUDIO_PATHS } from "../paths";
import { studioConfirmPage } from "../sign-in";
import { studioErrors } from "../studio-errors";

/** GET {WEB_URL}/studio/sign-in/confirm: the mailed link lands here and asks for one click. */
export const getStudioSignInConfirm = page({
  method: "GET",
  path: STUDIO_PATHS.confirm,
  summary: "The landing page of a studio sign-in link",
  auth: "none",
  renderErrors: studioErrors,
  handle: ({ request, env, url }) => studioConfirmPage(request, env, url),
});
