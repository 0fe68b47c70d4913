import { addLinkPage } from "../pages/links";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/links: the "Add a link" form; the page is fetched and narrated into the private feed. */
export const postListenLinks = page({
  method: "POST",
  path: LISTEN_PATHS.links,
  summary: "Adds a web page by its link to the listener's private feed",
  auth: "session",
  handle: ({ request, env, ctx, requestId, signedIn }) => addLinkPage(request, env, ctx, requestId, signedIn),
});
