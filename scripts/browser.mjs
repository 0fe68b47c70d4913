// Debian's Chromium driven by playwright-core (never a downloaded browser), for the smoke test, the
// browser tests and the screenshots.
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Headless in a container: no sandbox, GPU or background traffic (the machine has no internet). Audio
// plays without a gesture, so a test can start the player the way a listener's click would.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--autoplay-policy=no-user-gesture-required",
];

/** Debian's Chromium, headless. */
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
