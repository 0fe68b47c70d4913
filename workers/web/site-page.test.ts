import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openPage } from "../../test/support/web";
import { assetPath, sitePage } from "./site-page";

/** The shared shell of the public pages and the built assets it names (docs/web.md "Web front-end"). */
describe("site page shell", () => {
  it("serves the built style sheet it links, under a content-hashed name", async () => {
    const path = assetPath("site.css");
    expect(path).toMatch(/^\/assets\/site-[A-Z0-9]+\.css$/);
    const res = await openPage(path);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("--accent");
    const html = await sitePage(env, { title: "T", body: "" }).text();
    expect(html).toContain(`<link rel="stylesheet" href="${path}">`);
  });

  it('keeps the player\'s script within its budget: 3 KB gzipped (docs/web.md "Web front-end" says 2.1 KB)', async () => {
    const res = await openPage(assetPath("player.js"));
    expect(res.status).toBe(200);
    const gzipped = await new Response(res.body!.pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    expect(gzipped.byteLength).toBeGreaterThan(500);
    expect(gzipped.byteLength).toBeLessThan(3 * 1024);
  });

  it("allows only its own scripts and refuses framing unless the page is framable", async () => {
    const page = sitePage(env, { title: "<T>", body: "<p>x</p>" });
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(await page.text()).toContain("<title>&lt;T&gt;</title>");

    const framed = sitePage(env, { title: "E", body: "", framable: true, noindex: true });
    expect(framed.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(framed.headers.has("x-frame-options")).toBe(false);
    expect(framed.headers.get("x-robots-tag")).toBe("noindex");
    expect(await framed.text()).toContain('<meta name="robots" content="noindex">');
  });
});
