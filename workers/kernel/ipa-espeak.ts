/**
 * IPA to eSpeak NG's phoneme mnemonics for English (the letters eSpeak reads between [[ and ]], as
 * `espeak-ng -x` prints them; the phonemes document of espeak-ng and the en phoneme table). A small table:
 * the phonemes of English as dictionaries write them in IPA, General American and Received
 * Pronunciation alike; a symbol outside it makes the transcription unusable for eSpeak (null), and
 * the lexicon then falls back to the entry's alias.
 */
const TABLE: [ipa: string, espeak: string][] = [
  // Stress and syllables.
  ["ˈ", "'"],
  ["ˌ", ","],
  [".", ""],
  ["ˑ", ""],
  // Affricates and diphthongs, before their parts.
  ["t͡ʃ", "tS"],
  ["tʃ", "tS"],
  ["d͡ʒ", "dZ"],
  ["dʒ", "dZ"],
  ["eɪ", "eI"],
  ["aɪ", "aI"],
  ["ɔɪ", "OI"],
  ["aʊ", "aU"],
  ["oʊ", "oU"],
  ["əʊ", "oU"],
  ["ɪə", "i@"],
  ["ɪɚ", "i@"],
  ["eə", "e@"],
  ["ɛə", "e@"],
  ["ɛɚ", "e@"],
  ["ʊə", "U@"],
  ["ʊɚ", "U@"],
  // Long vowels, before the short ones.
  ["iː", "i:"],
  ["uː", "u:"],
  ["ɑː", "A:"],
  ["ɔː", "O:"],
  ["ɜː", "3:"],
  ["ɝː", "3:"],
  // Vowels.
  ["i", "i"],
  ["ɪ", "I"],
  ["ᵻ", "I#"],
  ["e", "e"],
  ["ɛ", "E"],
  ["æ", "a"],
  ["a", "a"],
  ["ɐ", "a#"],
  ["ɑ", "A:"],
  ["ɒ", "0"],
  ["ɔ", "O:"],
  ["o", "o"],
  ["ʌ", "V"],
  ["ə", "@"],
  ["ɚ", "3"],
  ["ɜ", "3:"],
  ["ɝ", "3:"],
  ["ʊ", "U"],
  ["u", "u:"],
  // Consonants.
  ["p", "p"],
  ["b", "b"],
  ["t", "t"],
  ["d", "d"],
  ["k", "k"],
  ["g", "g"],
  ["ɡ", "g"],
  ["f", "f"],
  ["v", "v"],
  ["θ", "T"],
  ["ð", "D"],
  ["s", "s"],
  ["z", "z"],
  ["ʃ", "S"],
  ["ʒ", "Z"],
  ["h", "h"],
  ["m", "m"],
  ["n", "n"],
  ["ŋ", "N"],
  ["ɲ", "n^"],
  ["l", "l"],
  ["ɫ", "l"],
  ["r", "r"],
  ["ɹ", "r"],
  ["ɾ", "t#"],
  ["w", "w"],
  ["ʍ", "w"],
  ["j", "j"],
  ["x", "x"],
  ["ç", "C"],
  ["ʔ", "?"],
  ["ː", ":"],
  [" ", " "],
];

// Marks that change nothing eSpeak distinguishes: the tie bar and the syllabic stroke, above or below.
const IGNORED = /[\u0361\u035c\u0329\u030d]/g;

/** The eSpeak mnemonics of an English IPA transcription, or null when a symbol is not in the table. */
export function ipaToEspeak(ipa: string): string | null {
  const text = ipa
    .normalize("NFC")
    .replace(/^\/|\/$|^\[|\]$/g, "")
    .replace(IGNORED, "")
    .trim();
  if (!text) return null;
  let out = "";
  for (let at = 0; at < text.length; ) {
    const hit = TABLE.find(([symbol]) => text.startsWith(symbol, at));
    if (!hit) return null;
    out += hit[1];
    at += hit[0].length;
  }
  return out || null;
}
