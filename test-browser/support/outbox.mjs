// What the browser tests read over plain HTTP: JSON answers and the local outbox's mail.
import assert from "node:assert/strict";

/** The JSON body of a successful answer; fails the test on any other status. */
export async function json(res) {
  assert.ok(res.ok, `${res.url} answered ${res.status}`);
  return res.json();
}

/** The newest outbox mail to `to`, once it has arrived (the sign-in mail is sent after the answer). */
export async function mailTo(base, to) {
  for (let i = 0; i < 50; i++) {
    const { messages } = await json(await fetch(`${base}/v1/dev/outbox?limit=10`));
    const mail = messages.find((m) => m.to === to);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to}`);
}
