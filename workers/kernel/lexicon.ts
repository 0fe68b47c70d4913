// One pronunciation lexicon for every engine (docs/narration-api.md "Pronunciation lexicon"). An entry says how to
// say a grapheme: by an IPA transcription (`phoneme`), by other words (`alias`), or both, as a W3C
// PLS lexeme does (https://www.w3.org/TR/pronunciation-lexicon/ §4.4-4.7). Each engine is given the
// lexicon in its own language: eSpeak NG phoneme input, SSML <phoneme> and <sub> for Azure and Google,
// the alias in place of the word for the rest. The render Worker applies it; the API Worker reads
// the same matching to find whose narration a change touches, so both live here.
import { escapeHtml } from "../core/text";
import { sha256Hex } from "../core/crypto";
import { ipaToEspeak } from "./ipa-espeak";

/** One pronunciation: at least one of `phoneme` (IPA) and `alias` is set. */
export interface LexiconEntry {
  grapheme: string;
  phoneme: string | null;
  alias: string | null;
}

/** How an engine takes a lexicon. */
export type LexiconMode = "espeak" | "ssml" | "alias";

/**
 * The lexicon that applies to a publisher's articles: the global entries, with the publisher's own
 * entries in place of global ones of the same grapheme.
 */
export function mergeLexicons(global: readonly LexiconEntry[], own: readonly LexiconEntry[]): LexiconEntry[] {
  const graphemes = new Set(own.map((e) => e.grapheme));
  return [...global.filter((e) => !graphemes.has(e.grapheme)), ...own];
}

/** Whether an engine of `mode` can say `entry` differently: alias engines need an alias, eSpeak a phoneme it can read or an alias. */
export function usableBy(entry: LexiconEntry, mode: LexiconMode): boolean {
  if (mode === "alias") return entry.alias !== null;
  if (mode === "espeak") return entry.alias !== null || (entry.phoneme !== null && ipaToEspeak(entry.phoneme) !== null);
  return entry.phoneme !== null || entry.alias !== null;
}

const WORD = String.raw`[\p{L}\p{N}\p{M}_]`;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A pattern of every grapheme, longest first, matched as whole words (not inside a longer word). */
function matcher(entries: readonly LexiconEntry[]): RegExp | null {
  if (entries.length === 0) return null;
  const alternatives = [...entries].sort((a, b) => b.grapheme.length - a.grapheme.length).map((e) => escapeRegExp(e.grapheme));
  return new RegExp(`(?<!${WORD})(?:${alternatives.join("|")})(?!${WORD})`, "gu");
}

/**
 * The entries of `lexicon` that change how an engine of `mode` says `text`: usable by it and found in
 * the text as a whole word (case as written, as PLS graphemes match), sorted by grapheme. This, not the
 * whole lexicon, goes into the cache key, so a change re-renders exactly the narrations it touches.
 */
export function entriesFor(lexicon: readonly LexiconEntry[], text: string, mode: LexiconMode): LexiconEntry[] {
  const usable = lexicon.filter((e) => usableBy(e, mode));
  const pattern = matcher(usable);
  if (!pattern) return [];
  const found = new Set(Array.from(text.matchAll(pattern), (m) => m[0]));
  return usable.filter((e) => found.has(e.grapheme)).sort((a, b) => (a.grapheme < b.grapheme ? -1 : a.grapheme > b.grapheme ? 1 : 0));
}

/** A digest of the entries that apply (entriesFor): part of the cache key, and kept on the audio; null when none do. */
export async function lexiconDigest(applied: readonly LexiconEntry[]): Promise<string | null> {
  if (applied.length === 0) return null;
  return sha256Hex(JSON.stringify(applied.map((e) => [e.grapheme, e.phoneme, e.alias])));
}

/**
 * Text rewritten for an engine, and where each of its characters came from: `origin(i)` is the
 * offset in the original text of the rewritten text's character `i` (a replacement's characters all
 * come from the start of the word it replaced), so an engine's word positions can be read back.
 */
export interface Rewritten {
  text: string;
  origin(index: number): number;
}

/** A span [from, to) of a text said as `text` instead. */
export interface Replacement {
  from: number;
  to: number;
  text: string;
}

/**
 * `text` with each replacement made (in order, not overlapping) and the text between passed through
 * `other` (which must keep its length, so offsets hold there).
 */
export function splice(text: string, replacements: readonly Replacement[], other: (s: string) => string = (s) => s): Rewritten {
  // Each part: where it starts in the output, where it came from, whether it maps one to one.
  const parts: { out: number; from: number; exact: boolean }[] = [];
  let out = "";
  let at = 0;
  const push = (piece: string, from: number, exact: boolean) => {
    parts.push({ out: out.length, from, exact });
    out += piece;
  };
  for (const r of replacements) {
    if (r.from > at) push(other(text.slice(at, r.from)), at, true);
    push(r.text, r.from, false);
    at = r.to;
  }
  if (at < text.length) push(other(text.slice(at)), at, true);
  return {
    text: out,
    origin(index) {
      let part = parts[0];
      for (const p of parts) if (p.out <= index) part = p;
      if (!part) return index;
      return part.exact ? part.from + (index - part.out) : part.from;
    },
  };
}

/** `second` rewritten from `first`'s text: its characters traced back to the text `first` rewrote. */
export function composed(first: Rewritten, second: Rewritten): Rewritten {
  return { text: second.text, origin: (index) => first.origin(second.origin(index)) };
}

/** Every whole-word occurrence of an entry's grapheme, replaced by `replace(entry)`. */
function rewrite(text: string, entries: readonly LexiconEntry[], replace: (entry: LexiconEntry) => string, other: (s: string) => string): Rewritten {
  const pattern = matcher(entries);
  const replacements = Array.from(pattern ? text.matchAll(pattern) : [], (m) => ({
    from: m.index,
    to: m.index + m[0].length,
    text: replace(entries.find((e) => e.grapheme === m[0])!),
  }));
  return splice(text, replacements, other);
}

/** For engines that take only words (OpenAI, ElevenLabs, Aura, self-hosted servers): each grapheme replaced by its alias. */
export function aliasText(text: string, entries: readonly LexiconEntry[]): string {
  const aliased = entries.filter((e) => e.alias !== null);
  return aliased.length === 0
    ? text
    : rewrite(
        text,
        aliased,
        (e) => e.alias!,
        (s) => s,
      ).text;
}

/**
 * For SSML engines (Azure, Google): the text XML-escaped, each grapheme in
 * `<phoneme alphabet="ipa" ph="...">` (SSML 1.1 §3.1.10) when the entry has a transcription, else in
 * `<sub alias="...">` (§3.1.11).
 */
export function ssmlText(text: string, entries: readonly LexiconEntry[]): string {
  if (entries.length === 0) return escapeHtml(text);
  let out = "";
  const pattern = matcher(entries)!;
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    const entry = entries.find((e) => e.grapheme === m[0])!;
    out += escapeHtml(text.slice(at, m.index));
    out +=
      entry.phoneme !== null
        ? `<phoneme alphabet="ipa" ph="${escapeHtml(entry.phoneme)}">${escapeHtml(m[0])}</phoneme>`
        : `<sub alias="${escapeHtml(entry.alias ?? "")}">${escapeHtml(m[0])}</sub>`;
    at = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}

/**
 * eSpeak's "[[" starts phoneme input; in text that is not ours it is kept from doing so, at the same
 * length ("[ ") so that offsets hold.
 */
function quietBrackets(s: string): string {
  return s.replace(/\[\[/g, "[ ");
}

/**
 * For eSpeak NG: each grapheme as phoneme input, `[[mnemonics]]` converted from the entry's IPA
 * (ipa-espeak.ts), or its alias when it has no transcription eSpeak can read; any "[[" of the text
 * itself is kept from starting phoneme input.
 */
export function espeakText(text: string, entries: readonly LexiconEntry[]): Rewritten {
  return rewrite(
    text,
    entries.filter((e) => usableBy(e, "espeak")),
    (e) => {
      const mnemonics = e.phoneme !== null ? ipaToEspeak(e.phoneme) : null;
      return mnemonics !== null ? `[[${mnemonics}]]` : quietBrackets(e.alias!);
    },
    quietBrackets,
  );
}
