import { describe, expect, it } from "vitest";
import { addListener } from "./support/articles";
import { forgetEdgeCache, readyArticle } from "./support/feeds";
import { call, jsonBody } from "./support/client";
import { publishSigned } from "./support/publish";
import { addNarratedArticle, openPage } from "./support/web";

/**
 * An article's address is shown as a link, so only http and https are taken (workers/kernel/web-url.ts),
 * wherever an address comes in, and only those are linked, whatever an older row holds.
 */

const HOSTILE = [
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
];

async function expectUrlRefused(res: Response) {
  expect(res.status).toBe(422);
  const { detail } = await res.json<{ detail: { loc: unknown[] }[] }>();
  expect(detail.map((d) => d.loc)).toContainEqual(["body", "url"]);
}

describe("an article url that is not http(s)", () => {
  it.each(HOSTILE)("is refused by the publish webhook: %s", async (url) => {
    await expectUrlRefused(await publishSigned({ title: "Harmless", publisher: "Evil Gazette", vertical: "tech", body_text: "Text.", url }));
  });

  it.each(HOSTILE)("is refused by forward: %s", async (url) => {
    const { token } = await addListener();
    await expectUrlRefused(await call(`/v1/listeners/${token}/forward`, jsonBody("POST", { url, title: "Harmless", text: "Text." })));
  });

  it("is never a link on the article page, the player or in the feed, even when stored before the check", async () => {
    const { article } = await addNarratedArticle({ slug: "old-row", url: "javascript:alert(document.cookie)", vertical: "tech" });
    for (const path of [`/articles/${article.slug}`, `/embed/article/${article.slug}`]) {
      const res = await openPage(path);
      expect(res.status, path).toBe(200);
      expect((await res.text()).toLowerCase(), path).not.toContain("javascript:");
    }
    await readyArticle({ slug: "old-row-in-feed", url: "javascript:alert(document.cookie)", vertical: "tech" });
    await forgetEdgeCache(["/v1/podcasts/service.xml"]);
    const feed = await call("/v1/podcasts/service.xml");
    expect(feed.status).toBe(200);
    const xml = await feed.text();
    expect(xml).toContain("old-row-in-feed");
    expect(xml.toLowerCase()).not.toContain("javascript:");
  });

  it("keeps an https address as the link", async () => {
    const res = await publishSigned({ title: "Fine", publisher: "Good Gazette", vertical: "tech", body_text: "Text.", url: "https://good.example/fine" });
    expect(res.status).toBe(200);
    const { slug } = await res.json<{ slug: string }>();
    expect(await (await openPage(`/articles/${slug}`)).text()).toContain('href="https://good.example/fine"');
  });
});
