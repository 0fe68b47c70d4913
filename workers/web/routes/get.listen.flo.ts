import { floPage } from "../listen/flo";
import { LISTEN_PATHS } from "../listen/paths";
import { page } from "../page-route";

/** GET {WEB_URL}/listen/flo: the listener's day in blocks. */
export const getListenFlo = page({
  method: "GET",
  path: LISTEN_PATHS.flo,
  summary: "The listener's flo, block by block",
  auth: "session",
  handle: ({ request, env, signedIn }) => floPage(request, env, signedIn),
});
