import { OAUTH_PATHS } from "../server";
import { answerConsent } from "../consent-page";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/oauth/authorize: Allow or Deny. Signed out, it is a page that says so (401), not a redirect. */
export const postConsent = page({
  method: "POST",
  path: OAUTH_PATHS.authorize,
  summary: "The listener's answer on the consent page",
  auth: "browser",
  handle: ({ request, env, signedIn }) => answerConsent(request, env, signedIn),
});
