import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import { database, listeners } from "../../workers/db";
import { decryptToken } from "../../workers/kernel/listener-tokens";
import { privateFeedUrl } from "../../workers/kernel/public-urls";
import { call, jsonBody } from "./client";

/** Subscribes through the API (with `idempotencyKey` as the Idempotency-Key header) and returns the 201 body with the token. */
export async function subscribeVia(email: string, verticals: string[] = [], idempotencyKey?: string) {
  const headers: Record<string, string> = idempotencyKey ? { "idempotency-key": idempotencyKey } : {};
  const res = await call("/v1/listeners/subscribe", jsonBody("POST", { email, verticals }, headers));
  expect(res.status).toBe(201);
  return (await res.json()) as { token: string; feed_url: string; email: string; verticals: string[]; already_subscribed: boolean };
}

/** The private feed token inside a feed URL. */
export function feedTokenOf(feedUrl: string): string {
  const match = /\/v1\/podcasts\/u\/([^/]+)\.xml$/.exec(feedUrl);
  if (!match) throw new Error(`not a private feed URL: ${feedUrl}`);
  return match[1];
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** The local outbox, newest first. */
export async function readOutbox(): Promise<OutboxMail[]> {
  const res = await call("/v1/dev/outbox?limit=100");
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: OutboxMail[] }).messages;
}

/** Waits for `count` messages in the outbox: magic-link mail is sent after the response (ctx.waitUntil). */
export async function waitForOutbox(count: number): Promise<OutboxMail[]> {
  return vi.waitFor(async () => {
    const messages = await readOutbox();
    expect(messages.length).toBeGreaterThanOrEqual(count);
    return messages;
  });
}

/** The magic secret in a sign-in mail. */
export function magicOf(mail: OutboxMail): string {
  const match = /magic=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error("no magic link in the mail");
  return match[1];
}

/**
 * The account token and feed URL `email` holds now, read from the store: the first sign-in proves the
 * address and replaces the ones the subscribe answered (workers/listeners/account.ts proveAddress).
 */
export async function currentCredentials(email: string): Promise<{ token: string; feed_url: string }> {
  const row = await database(env).query.listeners.findFirst({ where: eq(listeners.email, email) });
  if (!row?.privateFeedTokenEncrypted) throw new Error(`no listener ${email}`);
  const [token, feed] = await Promise.all([decryptToken(env, row.tokenEncrypted), decryptToken(env, row.privateFeedTokenEncrypted)]);
  return { token, feed_url: privateFeedUrl(env, feed) };
}
