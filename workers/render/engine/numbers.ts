// Numbers and dates the way each language reads them, where eSpeak NG's own rules read them otherwise
// (docs/narration.md "Numbers, dates and abbreviations"; each rule proven by eSpeak's phonemes in
// workers/render/engine/languages.test.ts). Everything else, French, Spanish, Italian and Portuguese
// years, dates and decimals, German decimals and thousands, eSpeak already says right.
import type { Replacement } from "../../kernel/lexicon";

const GERMAN_UNITS = ["", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"];
const GERMAN_TEENS = ["zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"];
const GERMAN_TENS = ["", "", "zwanzig", "dreißig"];

/** A German number from 1 to 39 in words ("einundzwanzig"). */
function germanCardinal(n: number): string {
  if (n < 10) return n === 1 ? "eins" : GERMAN_UNITS[n];
  if (n < 20) return GERMAN_TEENS[n - 10];
  const unit = n % 10;
  return `${unit ? `${GERMAN_UNITS[unit]}und` : ""}${GERMAN_TENS[Math.floor(n / 10)]}`;
}

/** The stem of a German ordinal from 1 to 39 ("dritt", "einundzwanzigst"), to which -e or -en is added. */
function germanOrdinal(n: number): string {
  const irregular: Record<number, string> = { 1: "erst", 3: "dritt", 7: "siebt", 8: "acht" };
  return irregular[n] ?? (n < 20 ? `${germanCardinal(n)}t` : `${germanCardinal(n)}st`);
}

const GERMAN_MONTHS = "Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember";

/**
 * German. A day before a month, or a century ("3. Oktober", "19. Jahrhundert"), is an ordinal: eSpeak
 * reads "drei" and takes the full stop for the sentence's end. After an article of the nominative
 * ("der 3. Oktober") it ends in -e, elsewhere ("am 3. Oktober", a dateline) in -en. A year from
 * 1100 to 1999 is said in hundreds ("neunzehnhundert neunundachtzig"), where eSpeak says a cardinal
 * ("eintausend neunhundert..."); a number of that size followed by a currency or percent sign or
 * word stays a cardinal.
 */
function german(text: string): Replacement[] {
  const out: Replacement[] = [];
  const ordinal = new RegExp(`(?<=(\\p{L}+)?\\s*)(?<![\\d.,])([1-9]|[12]\\d|3[01])\\.(?=\\s+(?:${GERMAN_MONTHS}|Jahrhunderts?)\\b)`, "gu");
  for (const m of text.matchAll(ordinal)) {
    const nominative = /^(der|die|das)$/i.test(m[1] ?? "");
    out.push({ from: m.index, to: m.index + m[2].length + 1, text: `${germanOrdinal(Number(m[2]))}${nominative ? "e" : "en"}` });
  }
  const year = /(?<![\d.,])1([1-9])(\d\d)(?![\d]|[.,]\d|\s*(?:€|\$|%|‰|Euro|Dollar|Franken|Prozent|Promille)\b)/gu;
  for (const m of text.matchAll(year)) {
    const rest = Number(m[2]);
    out.push({ from: m.index, to: m.index + 4, text: `${GERMAN_TEENS[Number(m[1])]}hundert${rest ? ` ${rest}` : ""}` });
  }
  return out;
}

/**
 * French and Russian group thousands with a space ("1 234,5"), which eSpeak reads as two numbers
 * ("один двести тридцать четыре"): the groups are joined.
 */
function spaceGrouped(text: string): Replacement[] {
  return Array.from(text.matchAll(/(?<![\d.,])\d{1,3}(?: \d{3})+(?!\d)/gu), (m) => ({
    from: m.index,
    to: m.index + m[0].length,
    text: m[0].replaceAll(" ", ""),
  }));
}

const KANA_DIGITS = ["", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"];
/** The readings of 1-9 thousands, hundreds and tens, with their sound changes (さんびゃく, はっせん). */
const KANA_PLACES = [
  ["", "せん", "にせん", "さんぜん", "よんせん", "ごせん", "ろくせん", "ななせん", "はっせん", "きゅうせん"],
  ["", "ひゃく", "にひゃく", "さんびゃく", "よんひゃく", "ごひゃく", "ろっぴゃく", "ななひゃく", "はっぴゃく", "きゅうひゃく"],
  ["", "じゅう", "にじゅう", "さんじゅう", "よんじゅう", "ごじゅう", "ろくじゅう", "ななじゅう", "はちじゅう", "きゅうじゅう"],
];
const KANA_GROUPS = ["", "まん", "おく", "ちょう"];

/** A whole number in kana, as Japanese reads it (1989: せんきゅうひゃくはちじゅうきゅう). */
export function kanaNumber(digits: string): string {
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 4) groups.unshift(digits.slice(Math.max(0, end - 4), end).padStart(4, "0"));
  if (groups.length > KANA_GROUPS.length) return [...digits].map((d) => KANA_DIGITS[Number(d)] || "ぜろ").join("");
  let out = "";
  groups.forEach((group, i) => {
    const [a, b, c, d] = [...group].map(Number);
    const said = `${KANA_PLACES[0][a]}${KANA_PLACES[1][b]}${KANA_PLACES[2][c]}${KANA_DIGITS[d]}`;
    if (said) out += `${said}${KANA_GROUPS[groups.length - 1 - i]}`;
  });
  return out || "ぜろ";
}

/** Japanese: eSpeak's Japanese says nothing for digits, so they are given as kana ("1,989" too). */
function japanese(text: string): Replacement[] {
  return Array.from(text.matchAll(/(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d])|\d+/gu), (m) => ({
    from: m.index,
    to: m.index + m[0].length,
    text: kanaNumber(m[0].replaceAll(",", "")),
  }));
}

const RULES: Record<string, (text: string) => Replacement[]> = { de: german, fr: spaceGrouped, ru: spaceGrouped, ja: japanese };

/** The numbers of `text` to say otherwise in `language` (a primary subtag), in order; none for most languages. */
export function numberReadings(text: string, language: string): Replacement[] {
  return (RULES[language]?.(text) ?? []).sort((a, b) => a.from - b.from);
}
