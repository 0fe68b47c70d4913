// Which dependency licences can be combined into this GPL-3.0-or-later project (package.json
// "license", LICENSE). scripts/licences.mjs applies it to every package it lists; it does no I/O,
// so test/licences.test.ts runs it inside workerd with the rest of the suite.
import satisfies from "spdx-satisfies";

/**
 * SPDX ids the FSF lists as compatible with GPL-3.0 (https://www.gnu.org/licenses/license-list.html),
 * and the permissive BlueOak-1.0.0 and MIT-0 it does not list. spdx-satisfies reads an "-or-later"
 * id as a range, so GPL-3.0-only, GPL-2.0-or-later and LGPL-2.1-only pass; GPL-2.0-only (which
 * forbids the GPL-3.0 terms) and AGPL-3.0 (which would add its network clause) do not. NAIST-2003,
 * IPADIC's (the Japanese readings dictionary, data the render Worker reads from R2), asks only that
 * its notice and no-warranty paragraphs go with every copy, as the permissive licences above do;
 * Debian ships it in main.
 */
export const ALLOWED = [
  "0BSD",
  "Apache-2.0",
  "BlueOak-1.0.0",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "CC-BY-4.0",
  "CC0-1.0",
  "GPL-3.0-or-later",
  "ISC",
  "LGPL-2.0-or-later",
  "MIT",
  "MIT-0",
  "MPL-2.0",
  "NAIST-2003",
  "Python-2.0",
  "Unlicense",
];

/**
 * Whether an SPDX expression (a package.json "license") rules the package out: no branch of an OR
 * is allowed, or one term of an AND is not. Anything that is not SPDX ("UNLICENSED", "SEE LICENSE
 * IN ...", a missing licence) is ruled out too: someone has to read it.
 */
export function incompatible(expression) {
  if (typeof expression !== "string" || expression === "") return true;
  try {
    return !satisfies(expression, ALLOWED);
  } catch {
    return true;
  }
}

/** The packages that `incompatible` rules out, one "name@version: licence" line each. */
export function violations(packages) {
  return packages.filter((p) => incompatible(p.licence)).map((p) => `${p.name}@${p.version}: ${p.licence || "no SPDX licence"}`);
}
