import { moveFloItem } from "../pages/flo";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/flo/move: one article one place up or down. */
export const postListenFloMove = page({
  method: "POST",
  path: LISTEN_PATHS.floMove,
  summary: "Moves one flo article up or down",
  auth: "session",
  handle: ({ request, env, signedIn }) => moveFloItem(request, env, signedIn),
});
