import { podcastApps } from "../kernel/public-urls";
import { escapeHtml } from "./page";

/**
 * The podcast apps' one-tap subscribe links (workers/kernel/public-urls.ts) as a list of buttons
 * named by the element `labelledBy`; each link's accessible name also says what it subscribes to
 * (`feedName`), since a page may offer several feeds.
 */
export function podcastAppLinks(feedUrl: string, feedName: string, labelledBy: string): string {
  const items = podcastApps(feedUrl)
    .map((app) => `<li><a href="${escapeHtml(app.href)}">${escapeHtml(app.name)}<span class="visually-hidden">: ${escapeHtml(feedName)}</span></a></li>`)
    .join("");
  return `<ul class="apps" aria-labelledby="${escapeHtml(labelledBy)}">${items}</ul>`;
}
