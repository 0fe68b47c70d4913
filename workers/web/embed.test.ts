import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { MASTER_SAMPLE_RATE, wordTimingsPath } from "../kernel/audio-objects";
import { timingsJson } from "../kernel/word-timings";
import { call } from "../../test/support/client";
import { addNarratedArticle, openPage } from "../../test/support/web";

/** The embeddable player at {WEB_URL}/embed/article/{slug} (docs/web.md "Web front-end"). */
describe("embed player page", () => {
  it("may be framed by any site and runs only its own origin's scripts", async () => {
    const { article } = await addNarratedArticle();
    const res = await openPage(`/embed/article/${article.slug}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe");
    expect(res.headers.has("x-frame-options")).toBe(false);
    expect(res.headers.has("x-robots-tag")).toBe(false);
    const html = await res.text();
    expect(html).toMatch(/<script type="module" src="\/assets\/player-[A-Z0-9]+\.js"><\/script>/);
    expect(html).not.toMatch(/<script(?! type="module" src="\/assets\/)/);
  });

  it("shows title, publisher, MP3 then Opus, the paragraphs with their recorded starts, and a subscribe link", async () => {
    const { article, key } = await addNarratedArticle({ title: "Tides & <Moons>", publisher: "Sea Post" });
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    expect(html).toContain('<h1 data-start="0.100" data-index="0">Tides &amp; &lt;Moons&gt;</h1>');
    expect(html).toContain('<p class="publisher">Sea Post</p>');
    expect(html).toContain(
      `<source src="https://api.test/v1/audio/${key}.mp3" type="audio/mpeg"><source src="https://api.test/v1/audio/${key}.opus" type="audio/ogg; codecs=opus">`,
    );
    expect(html).toContain('<p data-start="2.500" data-index="1">First paragraph here.</p>');
    expect(html).toContain('<p data-start="6.000" data-index="2">Second &lt;b&gt;paragraph&lt;/b&gt; here.</p>');
    expect(html).toContain('href="https://web.test/listen"');
    for (const speed of ["0.75", "1", "1.25", "1.5", "1.75", "2"]) expect(html).toContain(`<option value="${speed}"`);
    expect(html).toContain('aria-label="Seek"');
    expect(html).toContain('type="application/json+oembed"');
    expect(html).toContain(`<link rel="canonical" href="https://web.test/articles/${article.slug}">`);
  });

  it("puts each word in a span with where the render measured it is spoken, and names the AI voice that reads it", async () => {
    const { article, key } = await addNarratedArticle({ title: "Tides & <Moons>" });
    // The words as the engine read them (paragraph 0 is the title with its full stop), in samples.
    const spoken: [number, string, number, number][] = [
      [0, "Tides", 0.1, 0.5],
      [0, "&", 0.5, 0.5],
      [0, "<Moons>.", 0.6, 1.2],
      [1, "First", 2.5, 2.9],
      [1, "paragraph", 3.0, 3.6],
      [1, "here.", 3.7, 4.1],
    ];
    const at = (s: number) => Math.round(s * MASTER_SAMPLE_RATE);
    await env.AUDIO.put(
      wordTimingsPath(key),
      timingsJson(spoken.map(([paragraph, text, start, end]) => ({ paragraph, text, start: at(start), end: at(end) }))),
    );
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    // The title as shown (no full stop); "&" has no letters, so it takes no time, starting where the next word does.
    expect(html).toContain(
      '<h1 data-start="0.100" data-index="0"><span class="w" data-s="0.100" data-e="0.500">Tides</span> <span class="w" data-s="0.600" data-e="0.600">&amp;</span> <span class="w" data-s="0.600" data-e="1.200">&lt;Moons&gt;</span></h1>',
    );
    expect(html).toContain(
      '<p data-start="2.500" data-index="1"><span class="w" data-s="2.500" data-e="2.900">First</span> <span class="w" data-s="3.000" data-e="3.600">paragraph</span> <span class="w" data-s="3.700" data-e="4.100">here.</span></p>',
    );
    // No timings for paragraph 2: its text stays plain and its start still works.
    expect(html).toContain('<p data-start="6.000" data-index="2">Second &lt;b&gt;paragraph&lt;/b&gt; here.</p>');
    expect(html).toContain('<p class="narrator">Read by an AI voice: en (local)</p>');
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const { article } = await addNarratedArticle();
    const res = await call(`https://web.test/embed/article/${article.slug}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(await res.text()).toBe("");
  });

  it("without recorded timings, shows the text but invents no starts", async () => {
    const { article } = await addNarratedArticle({}, null);
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    expect(html).toContain("<p>First paragraph here.</p>");
    expect(html).not.toContain("data-start");
  });

  it("a publisher_only stub shows no audio and no text, and carries noindex", async () => {
    const { article } = await addNarratedArticle({ visibility: "publisher_only", url: "https://pub.example/a" });
    const res = await openPage(`/embed/article/${article.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain("<audio");
    expect(html).not.toContain("/v1/audio/");
    expect(html).not.toContain("First paragraph");
    expect(html).not.toContain("player-");
  });

  it("an unknown or listener_private article is a framable 404 with noindex and no audio", async () => {
    const priv = await addArticle({ visibility: "listener_private", title: "Secret" });
    for (const slug of ["no-such-article", priv.slug]) {
      const res = await openPage(`/embed/article/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
      const html = await res.text();
      expect(html).not.toContain("<audio");
      expect(html).not.toContain("Secret");
    }
  });

  it("says the narration is not ready before a render is done", async () => {
    const article = await addArticle();
    const html = await (await openPage(`/embed/article/${article.slug}`)).text();
    expect(html).toContain("not ready yet");
    expect(html).not.toContain("<audio");
  });
});
