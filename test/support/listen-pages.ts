import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { database, listeners } from "../../workers/db";
import { testVars } from "../vars";
import { currentCredentials, subscribeVia } from "./listeners";
import { Browser, hiddenField, signIn } from "./oauth-agent";

/** Drivers for the listener pages (workers/web/listen): a signed-in browser and what the pages hold. */

const WEB = new URL(testVars.WEB_URL);

/**
 * A browser signed in on /listen as a new subscriber `email`, with the page's form token and the
 * subscription as it is after the sign-in: the first sign-in proves the address and replaces the
 * token and feed URL the subscribe answered (workers/listeners/account.ts proveAddress).
 */
export async function signedInListener(email: string, verticals: string[] = []) {
  const subscribed = await subscribeVia(email, verticals);
  const browser = new Browser();
  const page = await signIn(browser, new URL(`/sign-in?next=${encodeURIComponent("/listen")}`, WEB), email);
  expect(page.status).toBe(200);
  const html = await page.text();
  return { browser, subscription: { ...subscribed, ...(await currentCredentials(email)) }, html, csrf: hiddenField(html, "csrf") };
}

/** The listener row of `email` as stored. */
export function listenerRow(email: string) {
  return database(env).query.listeners.findFirst({ where: eq(listeners.email, email) });
}

/** Every URL an HTML page points at: href, src, action and content attributes. */
export function urlsIn(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src|action|content)="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
}
