import { eq } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../core/route";
import { database, listeners } from "../db";
import { htmlDocument } from "../mail/message";
import { listenerIdOfLink, UNSUBSCRIBE_PATH } from "./unsubscribe-link";

const LinkParam = v.object({
  token: v.pipe(v.string(), v.maxLength(100), v.description("The unsubscribe link of one listener's digest (not the account token).")),
});

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  // The link is a credential for this one action: keep it out of Referer headers and search indexes.
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
};

function page(status: number, title: string, body: string): Response {
  return new Response(htmlDocument(title, `<h1>${title}</h1>${body}`), { status, headers: PAGE_HEADERS });
}

const invalid = () => page(404, "Link not valid", "<p>This unsubscribe link is not valid. Use the link from your latest digest.</p>");

/** The listener a link names, if its signature is right and the listener still exists. */
async function listenerOfLink(env: Env, token: string) {
  const id = await listenerIdOfLink(env, token);
  return id === null ? undefined : database(env).query.listeners.findFirst({ columns: { id: true }, where: eq(listeners.id, id) });
}

const path = `${UNSUBSCRIBE_PATH}/:token`;
const notFound = { description: "The link is not valid", contentType: "text/html" };

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

/**
 * The one-click unsubscribe of RFC 8058: the URI of List-Unsubscribe, POSTed by the mailbox
 * provider (body List-Unsubscribe=One-Click) or by the confirm page. It needs no credential beyond
 * the link itself and can be repeated.
 */
export const postUnsubscribe = route({
  method: "POST",
  path,
  tag: "listeners",
  summary: "Stop the daily digest of the listener the link names (RFC 8058 one-click)",
  description: "Send List-Unsubscribe=One-Click as application/x-www-form-urlencoded; sets the listener's active to false.",
  auth: "none",
  params: LinkParam,
  responses: { 200: { description: "Unsubscribed; a page that says so", contentType: "text/html" }, 404: notFound },
  async handle({ env, params }) {
    const listener = await listenerOfLink(env, params.token);
    if (!listener) return invalid();
    await database(env).update(listeners).set({ active: false }).where(eq(listeners.id, listener.id));
    return page(200, "Unsubscribed", "<p>You are unsubscribed: no more daily digest mails will be sent to you. Your feeds keep working.</p>");
  },
});
