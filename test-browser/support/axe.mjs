// The accessibility check of the browser tests: axe-core (from node_modules, never a CDN) run in the
// page under test; a serious or critical violation fails the test with what and where it is.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Runs axe-core on `page` (a playwright-core Page or Frame) and fails on serious or critical
 * violations. page.evaluate runs outside the page's Content-Security-Policy, so pages whose CSP
 * allows only their own scripts are checked as served.
 */
export async function expectAccessible(page, label = page.url()) {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await globalThis.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(serious, [], `${label}: axe-core found serious or critical violations:\n${JSON.stringify(serious, null, 2)}`);
  return violations;
}

/** The two widths every page is checked at: a phone's, then a laptop's (the width a test goes on at). */
const WIDTHS = [390, 1280];

/**
 * Checks `page` at both widths: nothing scrolls sideways (the failure names the elements past the
 * edge), and axe-core finds nothing at all, moderate and minor findings included (expectAccessible
 * fails on serious and critical ones). With `screenshot`, also saves screenshots/<screenshot>-<width>.png
 * (gitignored), to be looked at.
 */
export async function checkEverywhere(page, label, screenshot) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    const wide = await page.evaluate(
      (w) => [...document.body.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > w).map((e) => e.outerHTML.slice(0, 80)),
      width,
    );
    assert.ok(scroll <= width, `${label} at ${width} px scrolls sideways (${scroll} px wide): ${wide.slice(-3).join(" | ")}`);
    assert.deepEqual(await expectAccessible(page, `${label} at ${width} px`), [], `${label} at ${width} px: axe-core findings`);
    if (screenshot) {
      mkdirSync("screenshots", { recursive: true });
      await page.screenshot({ path: `screenshots/${screenshot}-${width}.png`, fullPage: true });
    }
  }
}
