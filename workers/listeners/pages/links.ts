import { ValidationError } from "../../core/errors";
import { addLink, LINKS_PER_DAY, linksToday } from "../../articles/links";
import { firstUrl } from "../../articles/forward";
import { escapeHtml, hiddenInputs, seeOther } from "../../web/page";
import { guardWrite, refusedWrite, type SignedIn } from "./guard";
import { listenPage } from "./layout";
import { withNotice } from "./notices";
import { LISTEN_PATHS } from "./paths";

/**
 * "Add a link" on the listener's pages (issue 45): a form on the queue page, and the share target of
 * the installed web app (workers/web/static/manifest.webmanifest), which opens /listen/share with what
 * the phone shared; both post to /listen/links, which adds the page as POST /v1/listeners/{token}/links does.
 */

/**
 * The form: a field for the address, prefilled when a page was shared. Under its own heading on the
 * queue page; the share page is the form alone, so its heading is the page's.
 */
export async function addLinkForm(env: Pick<Env, "DB">, who: SignedIn, url = "", heading = true): Promise<string> {
  const used = await linksToday(env, who.listener);
  const left = Math.max(0, LINKS_PER_DAY - used);
  const quota =
    left === 0
      ? `<p class="note" role="status">You have added ${LINKS_PER_DAY} links in the last 24 hours, the most a day allows. Try again tomorrow.</p>`
      : `<p class="note">Paste the address of an article: it is read aloud and arrives in your private feed. ${left} of ${LINKS_PER_DAY} links left today.</p>`;
  const form = `${quota}
<form method="post" action="${LISTEN_PATHS.links}">${hiddenInputs({ csrf: who.session.csrf })}
<p><label>Article address<br><input type="url" name="url" required inputmode="url" autocomplete="url" placeholder="https://" value="${escapeHtml(url)}"></label></p>
<p><button class="primary" type="submit"${left === 0 ? " disabled" : ""}>Add to my feed</button></p></form>`;
  return heading ? `<section aria-labelledby="add-link"><h2 id="add-link">Add a link</h2>${form}</section>` : form;
}

/** GET /listen/share: what another app shared (a URL, or text holding one), ready to add with one press. */
export async function sharePage(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const params = new URL(request.url).searchParams;
  // Android puts a shared page's address in `text` more often than in `url` (Web Share Target, "params").
  const shared = [params.get("url"), params.get("text"), params.get("title")].map((v) => (v ? firstUrl(v) : null)).find(Boolean) ?? "";
  const intro = shared ? "" : "<p>Nothing to add was shared: paste the address below.</p>";
  return listenPage(env, LISTEN_PATHS.share, "Add a shared page", who.session, intro + (await addLinkForm(env, who, shared, false)));
}

/** POST /listen/links: adds the page, then back to the queue; a page that cannot be used says why. */
export async function addLinkPage(request: Request, env: Env, ctx: ExecutionContext, requestId: string, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.queue, who);
  if (write instanceof Response) return write;
  const url = URL.parse(write.field("url"));
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    return refusedWrite(env, LISTEN_PATHS.queue, "That is not a web address (http or https).", 422, write.session);
  try {
    const { created } = await addLink(env, ctx, requestId, write.listener, url);
    return seeOther(withNotice(LISTEN_PATHS.queue, created ? "link_added" : "link_known"));
  } catch (err) {
    if (err instanceof ValidationError) return refusedWrite(env, LISTEN_PATHS.queue, `This page cannot be added: ${err.issues[0].msg}.`, 422, write.session);
    throw err;
  }
}
