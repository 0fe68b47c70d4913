import { SIGN_IN_PATHS } from "../../web/sign-in";
import { confirmSignIn } from "../sign-in";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/sign-in/confirm: spends the link and opens a session. */
export const postSignInConfirm = page({
  method: "POST",
  path: SIGN_IN_PATHS.confirm,
  summary: "Spends a sign-in link and opens a session",
  auth: "none",
  handle: ({ request, env }) => confirmSignIn(request, env),
});
