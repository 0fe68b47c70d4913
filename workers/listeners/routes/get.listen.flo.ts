import { floPage } from "../pages/flo";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/listen/flo: the listener's day in blocks. */
export const getListenFlo = page({
  method: "GET",
  path: LISTEN_PATHS.flo,
  summary: "The listener's flo, block by block",
  auth: "session",
  handle: ({ request, env, signedIn }) => floPage(request, env, signedIn),
});
