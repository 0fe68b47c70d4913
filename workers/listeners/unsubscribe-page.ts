import { eq } from "drizzle-orm";
import * as v from "valibot";
import { database, listeners } from "../db";
import { htmlDocument } from "../mail/message";
import { listenerIdOfLink, UNSUBSCRIBE_PATH } from "./unsubscribe-link";

export const LinkParam = v.object({
  token: v.pipe(v.string(), v.maxLength(100), v.description("The unsubscribe link of one listener's digest (not the account token).")),
});

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  // The link is a credential for this one action: keep it out of Referer headers and search indexes.
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
};

export function page(status: number, title: string, body: string): Response {
  return new Response(htmlDocument(title, `<h1>${title}</h1>${body}`), { status, headers: PAGE_HEADERS });
}

export const invalid = () => page(404, "Link not valid", "<p>This unsubscribe link is not valid. Use the link from your latest digest.</p>");

/** The listener a link names, if its signature is right and the listener still exists. */
export async function listenerOfLink(env: Env, token: string) {
  const id = await listenerIdOfLink(env, token);
  return id === null ? undefined : database(env).query.listeners.findFirst({ columns: { id: true }, where: eq(listeners.id, id) });
}

export const path = `${UNSUBSCRIBE_PATH}/:token`;
export const notFound = { description: "The link is not valid", contentType: "text/html" };
