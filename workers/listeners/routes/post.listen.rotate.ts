import { rotatePage } from "../pages/account";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/rotate: new credentials, and a fresh session for this browser. */
export const postListenRotate = page({
  method: "POST",
  path: LISTEN_PATHS.rotate,
  summary: "Rotates the listener's credentials",
  auth: "session",
  handle: ({ request, env, signedIn }) => rotatePage(request, env, signedIn),
});
