import { queuePage } from "../pages/queue";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/listen/queue: recent articles of the listener's verticals with their render state. */
export const getListenQueue = page({
  method: "GET",
  path: LISTEN_PATHS.queue,
  summary: "The listener's queue with each article's render state",
  auth: "session",
  handle: ({ request, env, signedIn }) => queuePage(request, env, signedIn),
});
