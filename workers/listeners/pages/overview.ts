import * as v from "valibot";
import { Email, VerticalList } from "../../kernel/fields";
import { feedUrl, privateFeedToken, subscribe } from "../account";
import { savePreferences } from "../save-preferences";
import { LISTENER_VERTICALS } from "../../kernel/verticals";
import { fromOwnOrigin } from "../../core/web-session";
import { escapeHtml, formValues, hiddenInputs, seeOther } from "../../web/page";
import { podcastAppLinks } from "../../web/podcast-apps";
import { SIGN_IN_PATHS } from "../../web/sign-in";
import { browserBinding, mailSignInLink } from "../sign-in";
import { guardWrite, refusedWrite, type SignedIn } from "./guard";
import { listenPage } from "./layout";
import { noticeOf, withNotice } from "./notices";
import { LISTEN_PATHS } from "./paths";

/** {WEB_URL}/listen: subscribe and sign in when signed out; the feed, verticals and digest when signed in. */

function verticalBoxes(chosen: readonly string[]): string {
  return LISTENER_VERTICALS.map(
    (vt) => `<label><input type="checkbox" name="verticals" value="${vt.slug}"${chosen.includes(vt.slug) ? " checked" : ""}> ${escapeHtml(vt.label)}</label>`,
  ).join("");
}

function signedOutPage(request: Request, env: Env): Response {
  return listenPage(
    env,
    LISTEN_PATHS.home,
    "Listen to the news",
    null,
    `${noticeOf(request)}<p>Subscribe with your e-mail address: you get a private podcast feed of the topics you choose, a queue and an optional daily digest.</p>
<form method="post" action="${LISTEN_PATHS.subscribe}">
<p><label for="subscribe-email">E-mail address</label><br><input id="subscribe-email" type="email" name="email" required autocomplete="email"></p>
<fieldset><legend>Topics (none chosen: all of them)</legend>${verticalBoxes([])}</fieldset>
<p><button class="primary" type="submit">Subscribe</button></p></form>
<h2>Already subscribed?</h2>
<p><a href="${SIGN_IN_PATHS.request}?${new URLSearchParams({ next: LISTEN_PATHS.home })}">Sign in with a link by e-mail</a></p>`,
  );
}

function feedSection(url: string): string {
  return `<h2 id="feed-heading">Your private feed</h2>
<p>Add it to your podcast app with one tap:</p>${podcastAppLinks(url, "your private feed", "feed-heading")}
<p><label for="feed-url">Or copy the feed URL into any podcast app</label></p>
<div class="copy"><input id="feed-url" type="text" readonly value="${escapeHtml(url)}"><button type="button" data-copy="feed-url" hidden>Copy</button></div>
<p class="note" id="copy-status" role="status"></p>
<p class="note">The URL lets an app read your feed, nothing more. Keep it to yourself; if it leaks, get a new one under <a href="${LISTEN_PATHS.account}">Account</a>, which also shows it as a QR code for your phone.</p>`;
}

function verticalsSection({ session, listener }: SignedIn): string {
  const pins = [`<label><input type="radio" name="pinned" value=""${listener.preferredVertical === null ? " checked" : ""}> None</label>`]
    .concat(
      LISTENER_VERTICALS.map(
        (vt) =>
          `<label><input type="radio" name="pinned" value="${vt.slug}"${listener.preferredVertical === vt.slug ? " checked" : ""}> ${escapeHtml(vt.label)}</label>`,
      ),
    )
    .join("");
  return `<h2>Your verticals</h2>
<form method="post" action="${LISTEN_PATHS.verticals}">${hiddenInputs({ csrf: session.csrf })}
<fieldset><legend>Topics you follow (none chosen: all of them)</legend>${verticalBoxes(listener.verticals)}</fieldset>
<fieldset><legend>Pinned vertical (comes first)</legend>${pins}</fieldset>
<p><button class="primary" type="submit">Save verticals</button></p></form>`;
}

function digestSection({ session, listener }: SignedIn): string {
  const on = listener.active;
  return `<h2>Daily digest</h2>
<form method="post" action="${LISTEN_PATHS.digest}">${hiddenInputs({ csrf: session.csrf, digest: on ? "off" : "on" })}
<p>The daily digest e-mail is <strong>${on ? "on" : "off"}</strong>. <button type="submit">Turn it ${on ? "off" : "on"}</button></p></form>`;
}

/** GET /listen */
export async function overviewPage(request: Request, env: Env, who: SignedIn | null): Promise<Response> {
  if (!who) return signedOutPage(request, env);
  const url = feedUrl(env, await privateFeedToken(env, who.listener));
  return listenPage(
    env,
    LISTEN_PATHS.home,
    "Your listening",
    who.session,
    `${noticeOf(request)}<p>Signed in as <strong>${escapeHtml(who.session.email)}</strong>.</p>${feedSection(url)}${verticalsSection(who)}${digestSection(who)}`,
  );
}

const SubscribeForm = v.object({ email: Email, verticals: VerticalList });

/**
 * POST /listen/subscribe: the subscribe of the API (docs/listeners.md "Listeners": a known address past the
 * idempotency window changes nothing), then a sign-in link by mail. The answer is the same for a new and a known address, and the page
 * never shows the token: the mailed link proves the address before anything of the account is shown.
 */
export async function subscribePage(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refusedWrite(env, LISTEN_PATHS.home, "This form must be sent from this site's own page.", 403);
  const values = await formValues(request);
  const input = v.safeParse(SubscribeForm, { email: values("email")[0] ?? "", verticals: values("verticals") });
  if (!input.success) return refusedWrite(env, LISTEN_PATHS.home, "Give an e-mail address and choose topics from the list.", 422);
  // A client of the API's rule: no token here for anyone, a known address changes nothing, and the mailed
  // link, at most one per address per few minutes, is what proves the address.
  await subscribe(env, input.output.email, input.output.verticals);
  const { binding, setCookie } = browserBinding(request);
  mailSignInLink(env, ctx, input.output.email, LISTEN_PATHS.home, binding, true);
  return listenPage(
    env,
    LISTEN_PATHS.subscribe,
    "Check your mail",
    null,
    `<p>We mailed a sign-in link to <strong>${escapeHtml(input.output.email)}</strong>. Open it in this browser to see your private feed and choose what you hear.</p>`,
    { headers: { "Set-Cookie": setCookie } },
  );
}

const VerticalsForm = v.object({
  verticals: VerticalList,
  pinned: v.union([v.literal(""), v.picklist(LISTENER_VERTICALS.map((vt) => vt.slug))]),
});

/** POST /listen/verticals: the followed verticals and the pinned one, together. */
export async function saveVerticals(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.home, who);
  if (write instanceof Response) return write;
  const input = v.safeParse(VerticalsForm, { verticals: write.fields("verticals"), pinned: write.field("pinned") });
  if (!input.success) return refusedWrite(env, LISTEN_PATHS.home, "Choose topics from the list.", 422, write.session);
  await savePreferences(env, write.listener, { verticals: input.output.verticals, preferredVertical: input.output.pinned || null });
  return seeOther(withNotice(LISTEN_PATHS.home, "verticals"));
}

/** POST /listen/digest: on or off (the `active` preference: false stops the daily digest). */
export async function saveDigest(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.home, who);
  if (write instanceof Response) return write;
  const digest = write.field("digest");
  if (digest !== "on" && digest !== "off") return refusedWrite(env, LISTEN_PATHS.home, "Choose on or off.", 422, write.session);
  await savePreferences(env, write.listener, { active: digest === "on" });
  return seeOther(withNotice(LISTEN_PATHS.home, digest === "on" ? "digest_on" : "digest_off"));
}
