import { deleteConfirmPage } from "../pages/account";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/listen/delete: the confirmation step. */
export const getListenDelete = page({
  method: "GET",
  path: LISTEN_PATHS.remove,
  summary: "Asks to confirm deleting the account",
  auth: "session",
  handle: ({ env, signedIn }) => deleteConfirmPage(env, signedIn),
});
