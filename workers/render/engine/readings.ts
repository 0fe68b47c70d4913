// Japanese as people write it, kanji and kana, read by eSpeak NG, whose Japanese reads kana only (a
// kanji is "Chinese letter"): each word written in kanji is given to it as its kana reading, found by
// kuromoji's morphological analysis (@patdx/kuromoji, IPADIC). The dictionary is data, 17 MB
// compressed: it is not bundled but read from R2 beside the eSpeak language data (written there by
// scripts/vendor-readings.mjs through npm start's seed and the deploy script) the first time a
// Japanese text with kanji needs it, and kept for the isolate's life (docs/narration.md "Japanese in kanji").
import { TokenizerBuilder } from "@patdx/kuromoji";
import type { Replacement } from "../../kernel/lexicon";
import espeakLanguageData from "./vendor/espeak-data.json";
import type { ObjectReader } from "./offline";

type Tokenizer = Awaited<ReturnType<TokenizerBuilder["build"]>>;

const HAN = /\p{Script=Han}/u;

/** True when `text` has a character written in kanji. */
export const hasKanji = (text: string) => HAN.test(text);

let tokenizer: Tokenizer | undefined;

/** One file of the dictionary, unpacked. */
async function dictionaryFile(name: string, read: ObjectReader | null): Promise<ArrayBuffer> {
  const path = `${espeakLanguageData.prefix}${espeakLanguageData.readings}${name}`;
  const bytes = read ? await read(path) : null;
  if (!bytes) throw new Error(`no Japanese readings dictionary at ${path} (npm start and npm run deploy write it)`);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

/**
 * The analyser, built from R2 the first time. Two requests at once each build it rather than one wait
 * on the other's I/O, which workerd cancels (kernel/article-by-slug.ts); the second is dropped.
 */
async function analyser(read: ObjectReader | null): Promise<Tokenizer> {
  if (tokenizer) return tokenizer;
  const built = await new TokenizerBuilder({ loader: { loadArrayBuffer: (name) => dictionaryFile(name, read) } }).build();
  // scripts/vendor-readings.mjs: the trie-to-entries map as [keys][starts..., end][ids...], read in place.
  const table = new Int32Array(await dictionaryFile("targets.dat.gz", read));
  const keys = table[0];
  const ids = table.subarray(keys + 2);
  built.token_info_dictionary.target_map = new Proxy({} as Record<string, number[]>, {
    get: (_, key) => {
      const k = Number(key);
      return ids.subarray(table[1 + k], table[2 + k]);
    },
  });
  tokenizer ??= built;
  return tokenizer;
}

const KATAKANA = /[\u30a1-\u30f6]/g;

/** Katakana as hiragana, which eSpeak reads alike; kept as written when it is anything else (ー). */
const hiragana = (kana: string) => kana.replace(KATAKANA, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/**
 * The words of `text` written with kanji, each to be said as its reading (in hiragana). A word the
 * dictionary does not know keeps its kanji.
 */
export async function kanjiReadings(text: string, read: ObjectReader | null): Promise<Replacement[]> {
  const analysis = await analyser(read);
  // The best path's nodes carry their surface (the tokens' surface comes from the features, which
  // scripts/vendor-readings.mjs dropped), so each word is found where it is in the text.
  const path = analysis.viterbi_searcher.search(analysis.getLattice(text));
  const replacements: Replacement[] = [];
  let at = 0;
  for (const node of path) {
    const from = text.indexOf(node.surface_form, at);
    if (from < 0) continue;
    at = from + node.surface_form.length;
    if (node.type !== "KNOWN" || !hasKanji(node.surface_form)) continue;
    const reading = analysis.token_info_dictionary.getFeatures(String(node.name)).split(",")[8];
    if (reading && reading !== "*") replacements.push({ from, to: at, text: hiragana(reading) });
  }
  return replacements;
}
