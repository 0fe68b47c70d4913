import { subscribePage } from "../pages/overview";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/subscribe: the API's subscribe, then a sign-in link by mail. */
export const postListenSubscribe = page({
  method: "POST",
  path: LISTEN_PATHS.subscribe,
  summary: "Subscribes, then mails a sign-in link",
  auth: "none",
  // It subscribes and sends mail: the budget of the API's POST /v1/listeners/subscribe, which does the same.
  rateLimit: "read",
  handle: ({ request, env, ctx }) => subscribePage(request, env, ctx),
});
