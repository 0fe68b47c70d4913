import * as v from "valibot";

/**
 * True for an absolute http or https URL. An article's address is shown as a link (its page, the
 * player, the feeds' <link>), and following a `javascript:` one runs its script in the page that
 * shows it (HTML Standard, "javascript: URL special case"); `data:` and others have no business there.
 */
export function isWebUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && (url.protocol === "https:" || url.protocol === "http:");
}

/** An article's address as a body field: http or https only (isWebUrl), with its route's description. */
export function articleUrlField(description: string) {
  return v.pipe(v.string(), v.maxLength(2_048), v.check(isWebUrl, "must be an http or https URL"), v.description(description));
}
