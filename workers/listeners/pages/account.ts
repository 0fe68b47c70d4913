import { renderSVG } from "uqr";
import { closeAccount, feedUrl, privateFeedToken, rotateCredentials } from "../account";
import { endSession, startSession } from "../../core/web-session";
import { escapeHtml, hiddenInputs, seeOther } from "../../web/page";
import { guardWrite, refusedWrite, type SignedIn } from "./guard";
import { listenPage } from "./layout";
import { noticeOf, withNotice } from "./notices";
import { LISTEN_PATHS } from "./paths";

/** {WEB_URL}/listen/account: a new private feed URL (rotate), and leaving (delete, after a confirmation step). */

/**
 * The private feed URL as a QR code, for a phone's camera: the feed on a phone without typing a
 * secret. Drawn here as inline SVG (uqr, offline), never by an outside QR service, which would be
 * handed the URL; a four-module quiet zone, as ISO/IEC 18004 asks for.
 */
function feedQrCode(url: string): string {
  return renderSVG(url, { border: 4, pixelSize: 1 }).replace("<svg ", '<svg class="qr" role="img" aria-labelledby="qr-caption" ');
}

/** GET /listen/account */
export async function accountPage(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const url = feedUrl(env, await privateFeedToken(env, who.listener));
  return listenPage(
    env,
    LISTEN_PATHS.account,
    "Your account",
    who.session,
    `${noticeOf(request)}<p>Signed in as <strong>${escapeHtml(who.session.email)}</strong>.</p>
<h2>Your private feed on your phone</h2>
<figure class="qr-code">${feedQrCode(url)}<figcaption id="qr-caption">Point your phone's camera at this code: it opens your private feed's
address, with buttons for your podcast app. It is the same secret as the URL: show it to nobody.</figcaption></figure>
<h2>New private feed URL</h2>
<p>If your feed URL leaked, replace it. The old URL and your old account token stop working at once, every app you allowed
to act for you loses access, and other browsers are signed out. Then add the new URL to your podcast app.</p>
<form method="post" action="${LISTEN_PATHS.rotate}">${hiddenInputs({ csrf: who.session.csrf })}<p><button type="submit">Get a new feed URL</button></p></form>
<h2>Delete your account</h2>
<p>Removes your subscription, your preferences and your flo. Your private feed stops working.</p>
<p><a href="${LISTEN_PATHS.remove}">Delete my account…</a></p>`,
  );
}

/**
 * POST /listen/rotate: new credentials (and every other session and agent grant ends, as on the API),
 * then a fresh session for this browser, whose listener just proved presence with the form token.
 */
export async function rotatePage(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.account, who);
  if (write instanceof Response) return write;
  await rotateCredentials(env, write.listener);
  return seeOther(withNotice(LISTEN_PATHS.home, "rotated"), { "Set-Cookie": await startSession(env, write.listener.id) });
}

/** GET /listen/delete: the confirmation step. */
export async function deleteConfirmPage(env: Env, who: SignedIn): Promise<Response> {
  return listenPage(
    env,
    LISTEN_PATHS.remove,
    "Delete your account?",
    who.session,
    `<p class="warn">This deletes the subscription of <strong>${escapeHtml(who.session.email)}</strong> for good. Your private feed
and your sign-in stop working, and this cannot be undone.</p>
<form method="post" action="${LISTEN_PATHS.remove}">${hiddenInputs({ csrf: who.session.csrf })}
<p><button class="danger" type="submit" name="confirm" value="delete">Yes, delete my account</button> <a href="${LISTEN_PATHS.account}">No, keep it</a></p></form>`,
  );
}

/** POST /listen/delete: only with the confirmation page's button; then signed out. */
export async function deletePage(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.remove, who);
  if (write instanceof Response) return write;
  if (write.field("confirm") !== "delete") return refusedWrite(env, LISTEN_PATHS.remove, "Confirm with the delete button.", 422, write.session);
  await closeAccount(env, write.listener.id);
  return seeOther(withNotice(LISTEN_PATHS.home, "deleted"), { "Set-Cookie": await endSession(request, env) });
}
