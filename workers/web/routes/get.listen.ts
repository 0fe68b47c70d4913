import { overviewPage } from "../listen/overview";
import { LISTEN_PATHS } from "../listen/paths";
import { page } from "../page-route";

/** GET {WEB_URL}/listen: the private feed, verticals and digest when signed in; subscribe and sign in when not. */
export const getListen = page({
  method: "GET",
  path: LISTEN_PATHS.home,
  summary: "The listener's overview, or subscribe and sign in",
  auth: "browser",
  handle: ({ request, env, signedIn }) => overviewPage(request, env, signedIn),
});
