import { saveDigest } from "../pages/overview";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/digest: the daily digest on or off. */
export const postListenDigest = page({
  method: "POST",
  path: LISTEN_PATHS.digest,
  summary: "Turns the daily digest on or off",
  auth: "session",
  handle: ({ request, env, signedIn }) => saveDigest(request, env, signedIn),
});
