import { LISTEN_PATHS } from "../pages/paths";
import { sharePage } from "../pages/links";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/listen/share: the share target of the installed web app, a page shared from another app ready to add. */
export const getListenShare = page({
  method: "GET",
  path: LISTEN_PATHS.share,
  summary: "A page shared from another app, ready to add to the listener's feed",
  auth: "session",
  handle: ({ request, env, signedIn }) => sharePage(request, env, signedIn),
});
