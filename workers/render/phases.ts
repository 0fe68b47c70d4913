/**
 * Time spent in a render's CPU-heavy phases, for the job record (docs/benchmarks.md "Benchmarks"). workerd
 * advances Date.now() only across I/O, so each phase is bracketed by a timer wait; an isolate runs
 * one thing at a time, so a phase's wall time is its CPU time.
 */
export interface RenderPhases {
  synthesisMs: number;
  encodingMs: number;
  /** The watermark laid into each voiced paragraph (pipeline/watermark.ts). */
  markingMs: number;
}

/** Date.now() after a zero-length timer: the clock as of the end of the code that ran before. */
export async function tick(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return Date.now();
}

/** Runs `work` and adds its duration to `phases[phase]`; just runs it without `phases`. */
export async function timed<T>(phases: RenderPhases | undefined, phase: keyof RenderPhases, work: () => T | Promise<T>): Promise<T> {
  if (!phases) return work();
  const start = await tick();
  const result = await work();
  phases[phase] += (await tick()) - start;
  return result;
}
