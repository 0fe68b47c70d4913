// W3C Pronunciation Lexicon Specification 1.0 (https://www.w3.org/TR/pronunciation-lexicon/), the
// exchange format of the pronunciation lexicon: export writes one, import reads one. Only what the
// lexicon holds is read: each <lexeme> (§4.4) with its <grapheme>s (§4.5), its first <phoneme> (§4.6:
// the first is the preferred one) and its first <alias> (§4.7). Transcriptions must be in IPA, the
// alphabet the lexicon and SSML engines share (§4.1 alphabet="ipa", or on the <phoneme>).
import { escapeHtml as escapeXml, textProblem } from "../core/text";
import type { LexiconEntry } from "../kernel/lexicon";

export const PLS_NAMESPACE = "http://www.w3.org/2005/01/pronunciation-lexicon";
export const PLS_CONTENT_TYPE = "application/pls+xml";

/** A lexicon as a PLS document, one <lexeme> per entry. */
export function toPls(entries: readonly LexiconEntry[], language = "en-US"): string {
  const lexemes = entries.map((e) => {
    const parts = [`<grapheme>${escapeXml(e.grapheme)}</grapheme>`];
    if (e.phoneme !== null) parts.push(`<phoneme>${escapeXml(e.phoneme)}</phoneme>`);
    if (e.alias !== null) parts.push(`<alias>${escapeXml(e.alias)}</alias>`);
    return `  <lexeme>\n    ${parts.join("\n    ")}\n  </lexeme>\n`;
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" alphabet="ipa" xml:lang="${escapeXml(language)}">\n` +
    lexemes.join("") +
    `</lexicon>\n`
  );
}

/** Why a document is not a PLS lexicon this service can take; the message is shown to the client. */
export class PlsError extends Error {}

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: (Element | string)[];
}

/** The entries of a PLS document; throws PlsError naming what is wrong. */
export function fromPls(xml: string): LexiconEntry[] {
  const root = parseXml(xml);
  if (localName(root.name) !== "lexicon") throw new PlsError(`the root element is <${root.name}>, not <lexicon>`);
  const alphabet = (root.attributes.alphabet ?? "").toLowerCase();
  const entries: LexiconEntry[] = [];
  for (const lexeme of elements(root, "lexeme")) {
    const graphemes = elements(lexeme, "grapheme").map((g) => textOf(g).trim());
    if (graphemes.length === 0 || graphemes.some((g) => g === "")) throw new PlsError("a <lexeme> without a <grapheme>");
    const phonemeElement = elements(lexeme, "phoneme")[0];
    if (phonemeElement) {
      const its = (phonemeElement.attributes.alphabet ?? alphabet).toLowerCase();
      if (its !== "ipa") throw new PlsError(`the <phoneme> of "${graphemes[0]}" is in the alphabet "${its || "(none)"}"; only ipa is taken`);
    }
    const phoneme = phonemeElement ? textOf(phonemeElement).trim() || null : null;
    const aliasElement = elements(lexeme, "alias")[0];
    const alias = aliasElement ? textOf(aliasElement).trim() || null : null;
    if (phoneme === null && alias === null) throw new PlsError(`the <lexeme> of "${graphemes[0]}" has neither a <phoneme> nor an <alias>`);
    for (const grapheme of graphemes) entries.push({ grapheme, phoneme, alias });
  }
  return entries;
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);
const elements = (parent: Element, name: string) => parent.children.filter((c): c is Element => typeof c !== "string" && localName(c.name) === name);
const textOf = (e: Element): string => e.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/**
 * Whether `code` is a character XML 1.0 allows (§2.2, Char): tab, LF, CR and the rest of Unicode but
 * the other C0 controls, the surrogates (which alone are no character) and U+FFFE and U+FFFF. A
 * reference must name one (§4.1, "Well-formedness constraint: Legal Character"); taken as it is, a
 * reference such as &#xD800; or &#x1; put a lone surrogate or a control into the lexicon, which no
 * other input may hold (core/text.ts), and from there into SSML and feeds. XML allows DEL and the C1
 * controls, which no other input may hold either: a reference must also name a character any body may.
 */
function isXmlChar(code: number): boolean {
  if (code === 0x9 || code === 0xa || code === 0xd) return true;
  return (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** XML character and predefined entity references (XML 1.0 §4.1, §4.6); no other entity exists here. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (ref, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!isXmlChar(code) || textProblem(String.fromCodePoint(code), true))
        throw new PlsError(`a bad character reference ${ref}: XML allows no such character`);
      return String.fromCodePoint(code);
    }
    const named = ENTITIES[body];
    if (named === undefined) throw new PlsError(`an unknown entity ${ref}`);
    return named;
  });
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ATTRIBUTE = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/;

/**
 * A small, strict XML reader for PLS documents: elements, attributes, text, CDATA, comments and
 * processing instructions. A DOCTYPE is refused, so no entity can be declared or expanded (no external
 * entities, no entity expansion); the nesting depth is bounded.
 */
function parseXml(xml: string): Element {
  let at = 0;
  const stack: Element[] = [];
  let root: Element | null = null;
  const fail = (what: string): never => {
    throw new PlsError(`not well-formed XML: ${what} at character ${at}`);
  };
  while (at < xml.length) {
    if (xml.startsWith("<?", at)) {
      const end = xml.indexOf("?>", at);
      if (end < 0) fail("an unclosed processing instruction");
      at = end + 2;
    } else if (xml.startsWith("<!--", at)) {
      const end = xml.indexOf("-->", at + 4);
      if (end < 0) fail("an unclosed comment");
      at = end + 3;
    } else if (xml.startsWith("<![CDATA[", at)) {
      const end = xml.indexOf("]]>", at);
      if (end < 0 || stack.length === 0) fail("a misplaced CDATA section");
      stack[stack.length - 1].children.push(xml.slice(at + 9, end));
      at = end + 3;
    } else if (xml.startsWith("<!", at)) {
      throw new PlsError("a DOCTYPE or other declaration; PLS documents here take none");
    } else if (xml.startsWith("</", at)) {
      const name = NAME.exec(xml.slice(at + 2))?.[0] ?? fail("an end tag without a name");
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closing <${open?.name ?? "nothing"}>`);
      at += 2 + name.length;
      const close = /^\s*>/.exec(xml.slice(at)) ?? fail("an unclosed end tag");
      at += close[0].length;
    } else if (xml[at] === "<") {
      const name = NAME.exec(xml.slice(at + 1))?.[0] ?? fail("a tag without a name");
      at += 1 + name.length;
      const element: Element = { name, attributes: {}, children: [] };
      for (let m = ATTRIBUTE.exec(xml.slice(at)); m; m = ATTRIBUTE.exec(xml.slice(at))) {
        element.attributes[localName(m[1]) === "lang" ? m[1] : localName(m[1])] = decodeEntities(m[3] ?? m[4]);
        at += m[0].length;
      }
      const end = /^\s*(\/?)>/.exec(xml.slice(at)) ?? fail(`a malformed <${name}> tag`);
      at += end[0].length;
      if (stack.length > 0) stack[stack.length - 1].children.push(element);
      else if (root) fail("a second root element");
      else root = element;
      if (end[1] !== "/") stack.push(element);
      if (stack.length > 16) fail("elements nested too deep");
    } else {
      const next = xml.indexOf("<", at);
      const text = xml.slice(at, next < 0 ? xml.length : next);
      if (stack.length > 0) stack[stack.length - 1].children.push(decodeEntities(text));
      else if (text.trim()) fail("text outside the root element");
      at = next < 0 ? xml.length : next;
    }
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1].name}> is not closed`);
  return root ?? fail("no root element");
}
