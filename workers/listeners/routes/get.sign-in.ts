import { safeNext, signInPage, SIGN_IN_PATHS } from "../../web/sign-in";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/sign-in?next=: the sign-in form, returning to `next` (a path on this site). */
export const getSignIn = page({
  method: "GET",
  path: SIGN_IN_PATHS.request,
  summary: "The sign-in form",
  auth: "none",
  handle: ({ url, env }) => signInPage(safeNext(url.searchParams.get("next"), env)),
});
