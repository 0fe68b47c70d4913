// What the player tests read of the word highlight (test-browser/player.test.mjs, player-rtl.test.mjs).
import assert from "node:assert/strict";

/** The audio's time and the lit words (indices among every timed word), read in one step in `frame` (a page or a frame). */
export const litNow = (frame) =>
  frame.evaluate(() => {
    const words = [...document.querySelectorAll("[data-s]")];
    return { t: document.querySelector("audio").currentTime, lit: words.flatMap((w, i) => (w.classList.contains("current") ? [i] : [])) };
  });

/** Whether word `i` is the one spoken at `t`, within `slack` seconds either way. */
export const coversWithin = (words, i, t, slack) => words[i].start - slack <= t && t < (words[i + 1]?.start ?? Infinity) + slack;

/** Waits until `predicate` (run in `frame`) holds, or fails naming `what`. */
export async function until(frame, predicate, arg, what) {
  try {
    await frame.waitForFunction(predicate, arg, { timeout: 30_000, polling: 100 });
  } catch {
    assert.fail(`timed out waiting until ${what}`);
  }
}
