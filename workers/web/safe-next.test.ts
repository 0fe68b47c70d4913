import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { safeNext } from "./sign-in";

/**
 * Where sign-in may return to (issue 46): each off-site `next` is its own assertion, so a guard that
 * breaks fails the cases only it stops, not one case among eight. Planted bugs these catch: the
 * control-character/backslash pattern dropped or made case-sensitive (%5c, %0d), the origin check
 * dropped, an absolute URL returned in place of the path, every next turned into "/".
 */
describe("safeNext", () => {
  it.each([
    ["a protocol-relative URL", "//evil.example/x"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a raw tab after the slash", "/\t/evil.example"],
    ["a raw newline after the slash", "/\n/evil.example"],
    ["a raw backslash", "/\\evil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["an encoded backslash, upper case", "/%5Cevil.example"],
    ["an encoded backslash, lower case", "/%5cevil.example"],
    ["an encoded CR LF, lower case", "/%0d%0a/evil.example"],
    ["an encoded CR LF, upper case", "/%0D%0A/evil.example"],
    ["an encoded DEL", "/%7f/evil.example"],
    ["a C1 control", "/\u0085/evil.example"],
    ["nothing", ""],
  ])("sends %s (%j) home", (_what, next) => {
    expect(safeNext(next, env)).toBe("/");
  });

  it("sends a missing next home", () => {
    expect(safeNext(null, env)).toBe("/");
    expect(safeNext(undefined, env)).toBe("/");
  });

  it.each([
    ["/listen", "/listen"],
    ["/oauth/authorize?client_id=a&state=b", "/oauth/authorize?client_id=a&state=b"],
    ["/listen#flo", "/listen#flo"],
    ["/a/../listen", "/listen"],
  ])("keeps the site path %j as the path %j, never as an absolute URL", (next, path) => {
    expect(safeNext(next, env)).toBe(path);
  });
});
