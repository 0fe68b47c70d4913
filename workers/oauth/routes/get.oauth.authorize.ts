import { OAUTH_PATHS } from "../server";
import { authorizePage } from "../consent-page";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/oauth/authorize: the OAuth consent page, after sign-in (the route table reads the session). */
export const getConsent = page({
  method: "GET",
  path: OAUTH_PATHS.authorize,
  summary: "The OAuth 2.1 authorization endpoint: sign-in, then consent",
  auth: "browser",
  handle: ({ request, env, signedIn }) => authorizePage(request, env, signedIn),
});
