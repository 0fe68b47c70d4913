import { saveFloOrder } from "../pages/flo";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/flo/order: a block's articles in their new order (the script, after a drop). */
export const postListenFloOrder = page({
  method: "POST",
  path: LISTEN_PATHS.floOrder,
  summary: "Saves a flo block's order",
  auth: "session",
  handle: ({ request, env, signedIn }) => saveFloOrder(request, env, signedIn),
});
