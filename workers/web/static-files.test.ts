import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { openPage } from "../../test/support/web";
import { assetPath } from "./site-page";

/** The static files the Worker serves itself (docs/web.md "Web front-end", "Build"). */
describe("static files", () => {
  it("serves a built bundle as JavaScript, immutable, with an entity tag that answers 304", async () => {
    const path = assetPath("player.js");
    const res = await openPage(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const body = await res.text();
    expect(body.length).toBeGreaterThan(500);

    const again = await call(new URL(path, env.WEB_URL).href, { headers: { "If-None-Match": `W/${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await again.text()).toBe("");

    const head = await call(new URL(path, env.WEB_URL).href, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(await head.text()).toBe("");
  });

  it("serves the icon and the sign-in page at their names, revalidated on every use", async () => {
    const icon = await openPage("/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(await icon.text()).toContain("<svg");

    const magic = await openPage("/magic?magic=abc");
    expect(magic.status).toBe(200);
    expect(magic.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await magic.text()).toContain("<title>Narration: sign in</title>");
  });

  it("answers 404 for a bundle it does not have, and 405 for a write to one it has", async () => {
    expect((await openPage("/assets/player-NOTBUILT.js")).status).toBe(404);
    expect((await openPage("/magic.html")).status).toBe(404);
    const post = await call(new URL(assetPath("site.css"), env.WEB_URL).href, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toMatchObject({ code: "method_not_allowed" });
  });
});
