import { SIGN_IN_PATHS } from "../../web/sign-in";
import { signOut } from "../sign-in";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/sign-out: ends the session (its form token required when there is one). */
export const postSignOut = page({
  method: "POST",
  path: SIGN_IN_PATHS.signOut,
  summary: "Signs out",
  auth: "browser",
  handle: ({ request, env, signedIn }) => signOut(request, env, signedIn),
});
