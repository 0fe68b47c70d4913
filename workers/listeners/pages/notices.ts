import { escapeHtml } from "../../web/page";

/**
 * What a write did, shown once on the page it returns to (POST, then 303 to a GET: RFC 9110 §15.4.4).
 * The query carries only a key of this table, so nothing a visitor types is echoed back.
 */
const NOTICES: Record<string, string> = {
  verticals: "Your verticals are saved.",
  digest_on: "The daily digest is on.",
  digest_off: "The daily digest is off.",
  order: "The new order is saved.",
  link_added: "The page is added: it is being read aloud and will be in your private feed in a few minutes.",
  link_known: "You had already added this page: it is in your queue.",
  rotated: "You have a new private feed URL. The old one has stopped working: update your podcast app.",
  deleted: "Your account is deleted. Your private feed has stopped working.",
  proven:
    "You have proven your address by signing in. Any token or feed URL handed out for it before has stopped working: add the private feed below to your podcast app.",
};

/** The path with a notice key to show after a write. */
export function withNotice(path: string, key: keyof typeof NOTICES): string {
  return `${path}?done=${key}`;
}

/** The notice a page shows for its request, if any, as a live region screen readers announce. */
export function noticeOf(request: Request): string {
  const text = NOTICES[new URL(request.url).searchParams.get("done") ?? ""];
  return text ? `<p class="notice" role="status">${escapeHtml(text)}</p>` : "";
}
