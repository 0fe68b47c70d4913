import { rotatePage } from "../listen/account";
import { LISTEN_PATHS } from "../listen/paths";
import { page } from "../page-route";

/** POST {WEB_URL}/listen/rotate: new credentials, and a fresh session for this browser. */
export const postListenRotate = page({
  method: "POST",
  path: LISTEN_PATHS.rotate,
  summary: "Rotates the listener's credentials",
  auth: "session",
  handle: ({ request, env, signedIn }) => rotatePage(request, env, signedIn),
});
