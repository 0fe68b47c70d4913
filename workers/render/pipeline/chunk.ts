/**
 * Splits text into pieces of at most `maxChars`, cutting only between sentences where it can: a
 * sentence longer than the limit is cut between words, and a word longer than the limit is cut
 * hard. Consecutive sentences share a piece while they fit. Pieces are trimmed and never empty.
 */
export function splitText(text: string, maxChars: number): string[] {
  const units = sentences(text).flatMap((s) => (s.length <= maxChars ? [s] : words(s, maxChars)));
  const pieces: string[] = [];
  let current = "";
  for (const unit of units) {
    if (current && current.length + 1 + unit.length > maxChars) {
      pieces.push(current);
      current = unit;
    } else {
      current = current ? `${current} ${unit}` : unit;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentences by the Unicode sentence-boundary rules (UAX #29). */
function sentences(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment.trim()).filter(Boolean);
}

function words(sentence: string, maxChars: number): string[] {
  return sentence.split(/\s+/).flatMap((word) => {
    const cuts: string[] = [];
    for (let i = 0; i < word.length; i += maxChars) cuts.push(word.slice(i, i + maxChars));
    return cuts;
  });
}
