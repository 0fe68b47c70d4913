import { deletePage } from "../listen/account";
import { LISTEN_PATHS } from "../listen/paths";
import { page } from "../page-route";

/** POST {WEB_URL}/listen/delete: only with the confirmation page's button; then signed out. */
export const postListenDelete = page({
  method: "POST",
  path: LISTEN_PATHS.remove,
  summary: "Deletes the account",
  auth: "session",
  handle: ({ request, env, signedIn }) => deletePage(request, env, signedIn),
});
