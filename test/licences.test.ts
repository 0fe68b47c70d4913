import { describe, expect, it } from "vitest";
import { incompatible, violations } from "../scripts/licence-policy.mjs";

// The policy `npm run licences` (scripts/licences.mjs) applies to every dependency it lists.
describe("licence policy (GPL-3.0-or-later project)", () => {
  it("lets permissive, weak-copyleft and GPL-3.0-compatible licences in", () => {
    for (const ok of [
      "MIT",
      "Apache-2.0",
      "BSD-3-Clause",
      "MPL-2.0",
      "CC0-1.0",
      "GPL-3.0-or-later",
      "GPL-2.0-or-later",
      "LGPL-2.1-only",
      "LGPL-3.0-or-later",
    ]) {
      expect(incompatible(ok), ok).toBe(false);
    }
  });

  it("takes an OR expression when one branch is allowed, an AND only when every term is", () => {
    expect(incompatible("(MIT OR Apache-2.0)")).toBe(false);
    expect(incompatible("SSPL-1.0 OR MIT")).toBe(false);
    expect(incompatible("Apache-2.0 AND LGPL-3.0-or-later AND MIT")).toBe(false);
    expect(incompatible("MIT AND SSPL-1.0")).toBe(true);
  });

  it("rules out licences GPL-3.0-or-later cannot absorb, and anything that is not SPDX", () => {
    for (const bad of [
      "SSPL-1.0",
      "BUSL-1.1",
      "GPL-2.0-only",
      "AGPL-3.0-or-later",
      "CC-BY-NC-4.0",
      "UNLICENSED",
      "proprietary",
      "SEE LICENSE IN LICENSE.txt",
      "",
      undefined,
    ]) {
      expect(incompatible(bad), String(bad)).toBe(true);
    }
  });

  it("names each package it rules out, which is what fails the CI step", () => {
    const packages = [
      { name: "fine", version: "1.0.0", licence: "MIT" },
      { name: "fake-sspl", version: "2.0.0", licence: "SSPL-1.0" },
      { name: "fake-closed", version: "0.1.0", licence: "proprietary" },
      { name: "fake-none", version: "0.0.1" },
    ];
    expect(violations(packages)).toEqual(["fake-sspl@2.0.0: SSPL-1.0", "fake-closed@0.1.0: proprietary", "fake-none@0.0.1: no SPDX licence"]);
  });
});
