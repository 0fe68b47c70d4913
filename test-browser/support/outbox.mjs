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

/**
 * The listener's account token as it is now: the first sign-in of an address replaces the token its
 * subscribe answered (docs/listeners.md "Proving the address"), so a test that signed in asks again,
 * by the API's own magic link, as a listener's app would.
 */
export async function currentToken(base, email) {
  const before = (await json(await fetch(`${base}/v1/dev/outbox?limit=10`))).messages.find((m) => m.to === email)?.id;
  await json(
    await fetch(`${base}/v1/auth/listener-magic-link`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) }),
  );
  let mail;
  for (let i = 0; i < 50 && (!mail || mail.id === before); i++) {
    mail = await mailTo(base, email);
    if (mail.id === before) await new Promise((r) => setTimeout(r, 200));
  }
  const magic = /magic=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  assert.ok(magic, `no magic-link code in the mail to ${email}`);
  const { token } = await json(
    await fetch(`${base}/v1/auth/listener-magic-link/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ magic }),
    }),
  );
  return token;
}
