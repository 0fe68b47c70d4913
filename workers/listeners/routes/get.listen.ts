import { overviewPage } from "../pages/overview";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/listen: the private feed, verticals and digest when signed in; subscribe and sign in when not. */
export const getListen = page({
  method: "GET",
  path: LISTEN_PATHS.home,
  summary: "The listener's overview, or subscribe and sign in",
  auth: "browser",
  handle: ({ request, env, signedIn }) => overviewPage(request, env, signedIn),
});
