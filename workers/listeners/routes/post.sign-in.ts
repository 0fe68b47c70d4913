import { SIGN_IN_PATHS } from "../../web/sign-in";
import { requestSignIn } from "../sign-in";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/sign-in: mails a sign-in link (the same answer whether or not the address has a subscription). */
export const postSignIn = page({
  method: "POST",
  path: SIGN_IN_PATHS.request,
  summary: "Asks for a sign-in link by e-mail",
  auth: "none",
  // It sends mail: the budget of the API's POST /v1/auth/listener-magic-link, which sends the same,
  // so the page is no cheaper way to fill a mailbox than the API.
  rateLimit: "read",
  handle: ({ request, env, ctx }) => requestSignIn(request, env, ctx),
});
