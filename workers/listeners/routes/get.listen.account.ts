import { accountPage } from "../pages/account";
import { LISTEN_PATHS } from "../pages/paths";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/listen/account: the private feed as a QR code, a new feed URL, and leaving. */
export const getListenAccount = page({
  method: "GET",
  path: LISTEN_PATHS.account,
  summary: "The listener's account: feed QR code, rotate, delete",
  auth: "session",
  handle: ({ request, env, signedIn }) => accountPage(request, env, signedIn),
});
