import type { Passage } from "./chunk";
import type { VoicedWord } from "./segment";

/** A word of a render and where it is spoken: [start, end) in samples from the start of the master. */
export interface RenderedWord {
  paragraph: number;
  text: string;
  start: number;
  end: number;
}

/**
 * Where each paragraph starts in a render's master, in samples, gathered from the joins of its
 * segments as they are voiced one after another: a segment's join reports where each of its
 * passages starts within it, and the segments before it are exactly `offset` samples long (the
 * masters are stored and encoded back to back, so this is the audio's own timeline).
 */
export class ParagraphTimeline {
  private readonly starts: (number | null)[];
  private readonly timedWords: RenderedWord[] = [];
  private offset = 0;

  constructor(paragraphs: number) {
    this.starts = Array.from({ length: paragraphs }, () => null);
  }

  /**
   * Takes a voiced segment: its passages, where each starts in the segment's master (null: nothing
   * audible from there to the segment's end), the master's length in samples, and its words.
   */
  add(passages: Passage[], starts: (number | null)[], samples: number, words: VoicedWord[] = []): void {
    passages.forEach((passage, i) => {
      const at = starts[i];
      if (this.starts[passage.paragraph] === null && at !== null) this.starts[passage.paragraph] = this.offset + at;
    });
    for (const w of words) {
      this.timedWords.push({ paragraph: passages[w.passage].paragraph, text: w.text, start: this.offset + w.start, end: this.offset + w.end });
    }
    this.offset += samples;
  }

  /** Every word so far, in speaking order, on the audio's own timeline (the segments before it added). */
  words(): RenderedWord[] {
    return this.timedWords;
  }

  /**
   * One start per paragraph, ascending. A paragraph with nothing audible (empty once normalised,
   * or silent) starts where the next audible one does, or at the end of the audio.
   */
  finish(): number[] {
    let next = this.offset;
    const filled = new Array<number>(this.starts.length);
    for (let i = this.starts.length - 1; i >= 0; i--) next = filled[i] = this.starts[i] ?? next;
    return filled;
  }
}
