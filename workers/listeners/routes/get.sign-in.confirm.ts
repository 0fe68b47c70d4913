import { SIGN_IN_PATHS } from "../../web/sign-in";
import { confirmPage } from "../sign-in";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/sign-in/confirm: the mailed link lands here and asks for one click. */
export const getSignInConfirm = page({
  method: "GET",
  path: SIGN_IN_PATHS.confirm,
  summary: "The landing page of a sign-in link",
  auth: "none",
  handle: ({ request, env }) => confirmPage(request, env),
});
