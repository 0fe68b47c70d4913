import { saveVerticals } from "../pages/overview";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/verticals: the followed verticals and the pinned one. */
export const postListenVerticals = page({
  method: "POST",
  path: LISTEN_PATHS.verticals,
  summary: "Saves the followed and pinned verticals",
  auth: "session",
  handle: ({ request, env, signedIn }) => saveVerticals(request, env, signedIn),
});
