import { route } from "../../core/route";
import { LinkParam, invalid, listenerOfLink, notFound, page, path } from "../unsubscribe-page";

/**
 * The visible link of the digest. Opening it changes nothing, because mail scanners and link
 * previews fetch links with GET (RFC 8058 section 1); the page asks to confirm with a POST.
 */
export const getUnsubscribe = route({
  method: "GET",
  path,
  tag: "listeners",
  summary: "The page that confirms stopping the daily digest (the digest's unsubscribe link)",
  auth: "none",
  params: LinkParam,
  responses: { 200: { description: "A page with the confirm button", contentType: "text/html" }, 404: notFound },
  async handle({ env, params }) {
    if (!(await listenerOfLink(env, params.token))) return invalid();
    // The form sends what a mailbox provider's one-click POST sends (RFC 8058 section 3.2).
    return page(
      200,
      "Unsubscribe",
      '<p>Stop the daily digest mails?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">' +
        "<button>Unsubscribe</button></form>",
    );
  },
});
