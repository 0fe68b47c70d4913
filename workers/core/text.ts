/**
 * Text that may reach SQLite (FTS5 MATCH, LIKE), XML feeds, SVG or a header. SQLite reads an FTS5
 * query as a C string, so a NUL ends it mid-term and the query is a syntax error; XML 1.0 (section
 * 2.2, Char) forbids C0 controls other than tab, LF and CR, unpaired surrogates and U+FFFE/U+FFFF.
 * Controls have no meaning in any field of this API, so input refuses them at the edge.
 */

/** C0 controls but tab, LF and CR; DEL; C1 controls; the noncharacters U+FFFE and U+FFFF. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/;
/** Tab, LF and CR: line structure, allowed in JSON bodies (prose) but not in a path, query or header. */
const LINE_BREAKS = /[\t\n\r]/;

/** Why `s` is not acceptable text, or null. `prose` allows tab, LF and CR. */
export function textProblem(s: string, prose: boolean): string | null {
  if (CONTROL.test(s) || (!prose && LINE_BREAKS.test(s))) return "text must not contain control characters";
  if (!s.isWellFormed()) return "text must not contain unpaired UTF-16 surrogates";
  return null;
}

const CONTROL_ALL = new RegExp(CONTROL.source, "g");

/**
 * Text from outside that no client request validated (forwarded e-mail, a cut excerpt) made safe
 * to store and publish: controls dropped, unpaired surrogates replaced by U+FFFD.
 */
export function cleanText(s: string): string {
  return s.replace(CONTROL_ALL, "").toWellFormed();
}

/** Characters XML 1.0 forbids (section 2.2, Char), unpaired surrogates included. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `xml` without the characters no XML parser accepts, whatever text a document was built from. */
export function xmlSafe(xml: string): string {
  return xml.replace(NOT_XML, "");
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML and XML element content and quoted attributes: pages, mail, feeds and SSML alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
