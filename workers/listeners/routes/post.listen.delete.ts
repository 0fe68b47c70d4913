import { deletePage } from "../pages/account";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/listen/delete: only with the confirmation page's button; then signed out. */
export const postListenDelete = page({
  method: "POST",
  path: LISTEN_PATHS.remove,
  summary: "Deletes the account",
  auth: "session",
  handle: ({ request, env, signedIn }) => deletePage(request, env, signedIn),
});
