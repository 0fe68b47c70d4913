import { articlePageUrl } from "../../core/config";
import { type ListenerArticle, newestOf, type QueueStatus, resolvedAudioUrl } from "../listener-articles";
import { jobStreamUrl } from "../../kernel/public-urls";
import { verticalLabel } from "../../kernel/verticals";
import { escapeHtml } from "../../web/page";
import type { SignedIn } from "./guard";
import { listenPage } from "./layout";
import { addLinkForm } from "./links";
import { noticeOf } from "./notices";
import { LISTEN_PATHS } from "./paths";

/** As many items as GET /v1/listeners/{token}/queue lists by default (docs/rules.md "Rules" 8). */
const QUEUE_LIMIT = 30;

const LABELS: Record<QueueStatus, string> = { done: "Ready", rendering: "Rendering", pending: "Waiting", failed: "Failed" };

/**
 * Where the listener can hear one of their own articles (a forward or a link) at once: its stream while
 * it renders, its file once done. Other articles are heard in the feed and on their pages.
 */
function listenLink(env: object, a: ListenerArticle, own: boolean): string {
  const url = a.streamingJobId ? jobStreamUrl(env, a.streamingJobId) : own ? resolvedAudioUrl(env, a) : null;
  return url ? ` <a href="${escapeHtml(url)}">Listen now<span class="visually-hidden">: ${escapeHtml(a.title)}</span></a>` : "";
}

/** GET /listen/queue: the "Add a link" form, then recent articles of the listener's verticals and their own, with their render state. */
export async function queuePage(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const items = await newestOf(env, who.listener, QUEUE_LIMIT);
  const counts = (Object.keys(LABELS) as QueueStatus[]).map((s) => `${LABELS[s]}: ${items.filter((a) => a.status === s).length}`).join(" · ");
  const rows = items
    .map(
      (a) => `<li><a href="${escapeHtml(articlePageUrl(env, a.slug))}">${escapeHtml(a.title)}</a>
<span class="note">${escapeHtml(a.publisher)} · ${escapeHtml(verticalLabel(a.vertical))}</span> <span class="badge badge-${a.status}">${LABELS[a.status]}</span>${listenLink(env, a, a.visibility === "listener_private")}</li>`,
    )
    .join("");
  const body = items.length
    ? `<p class="note">${counts}</p><ol>${rows}</ol>`
    : `<p>Nothing yet: new articles of your verticals appear here as they are published.</p>`;
  return listenPage(env, LISTEN_PATHS.queue, "Your queue", who.session, noticeOf(request) + (await addLinkForm(env, who)) + body);
}
