import { eq } from "drizzle-orm";
import { route } from "../../core/route";
import { database, listeners } from "../../db";
import { LinkParam, invalid, listenerOfLink, notFound, page, path } from "../unsubscribe-page";

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
