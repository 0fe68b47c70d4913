import { expect, vi } from "vitest";
import { call, jsonBody } from "./client";

/** Subscribes through the API and returns the 201 body. */
export async function subscribeVia(email: string, verticals: string[] = []) {
  const res = await call("/v1/listeners/subscribe", jsonBody("POST", { email, verticals }));
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
