import { renderSVG } from "uqr";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../../test/support/articles";
import { feedTokenOf } from "../../../test/support/listeners";
import { Browser, hiddenField } from "../../../test/support/oauth-agent";
import { signedInListener, urlsIn } from "../../../test/support/listen-pages";
import { addLinkInDevelopment, sitePage } from "../../../test/support/links-site";
import { testVars } from "../../../test/vars";
import { LISTEN_PATHS } from "./paths";

/** The listener pages (docs/listeners.md "Listener pages"): who may see them, what they show, and what they never show. */

const PAGES = [LISTEN_PATHS.home, LISTEN_PATHS.queue, LISTEN_PATHS.flo, LISTEN_PATHS.account, LISTEN_PATHS.remove];

describe("listener pages: session", () => {
  it("sends a signed-out browser to the sign-in page, which comes back to the page asked for", async () => {
    for (const path of PAGES.filter((p) => p !== LISTEN_PATHS.home)) {
      const res = await new Browser().get(path);
      expect(res.status, path).toBe(303);
      const location = new URL(res.headers.get("Location")!, testVars.WEB_URL);
      expect(location.pathname).toBe("/sign-in");
      expect(location.searchParams.get("next")).toBe(path);
    }
    const form = await (await new Browser().get("/sign-in?next=/listen/flo")).text();
    expect(form).toContain('action="/sign-in"');
    expect(hiddenField(form, "next")).toBe("/listen/flo");
  });

  it("shows a signed-out browser the subscribe form and a way to sign in, and no account", async () => {
    const res = await new Browser().get(LISTEN_PATHS.home);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`action="${LISTEN_PATHS.subscribe}"`);
    expect(html).toContain('name="verticals" value="young_moms"');
    expect(html).toContain(`href="/sign-in?next=%2Flisten"`);
    expect(html).not.toContain("Your private feed");
  });

  it("ends with the session: after sign-out the pages send the browser to sign in again", async () => {
    const { browser, csrf } = await signedInListener("out@example.test");
    expect((await browser.post("/sign-out", { csrf, next: LISTEN_PATHS.home })).status).toBe(303);
    expect((await browser.get(LISTEN_PATHS.queue)).status).toBe(303);
  });
});

describe("listener pages: what they show", () => {
  it("shows the private feed with one-tap links for podcast apps and a copyable URL", async () => {
    const { html, subscription } = await signedInListener("feed@example.test", ["science"]);
    const feed = subscription.feed_url;
    const bare = feed.replace(/^https:\/\//, "");
    expect(html).toContain(`id="feed-url" type="text" readonly value="${feed}"`);
    expect(html).toContain('data-copy="feed-url" hidden>Copy</button>');
    for (const href of [
      `podcast://${bare}`,
      `overcast://x-callback-url/add?url=${encodeURIComponent(feed)}`,
      `pktc://subscribe/${bare}`,
      `castro://subscribe/${bare}`,
      `antennapod-subscribe://${bare}`,
      `podcastaddict://${bare}`,
      `feed://${bare}`,
    ])
      expect(urlsIn(html)).toContain(href);
    expect(html).toContain('name="verticals" value="science" checked');
    expect(html).toContain('name="pinned" value="" checked');
    expect(html).toContain("The daily digest e-mail is <strong>on</strong>");
  });

  it("shows the private feed URL as a QR code on the account page, drawn in the page, and the URL nowhere else there", async () => {
    const { browser, subscription } = await signedInListener("qr@example.test");
    const html = await (await browser.get(LISTEN_PATHS.account)).text();
    // The code's modules are those of the feed URL (and so not of the account token or another URL).
    const modules = /<path fill="black" d="([^"]+)"/.exec(renderSVG(subscription.feed_url, { border: 4, pixelSize: 1 }))![1];
    expect(html).toContain(`<svg class="qr" role="img" aria-labelledby="qr-caption" xmlns="http://www.w3.org/2000/svg"`);
    expect(html).toContain(`d="${modules}"`);
    expect(html).toContain('<figcaption id="qr-caption">');
    expect(html).not.toContain(feedTokenOf(subscription.feed_url));
    // Nothing on the page sends the URL, or anything else, to another site.
    expect(urlsIn(html).filter((u) => /^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith(testVars.WEB_URL))).toEqual([]);
  });

  it("shows the queue with each article's render state", async () => {
    const { browser } = await signedInListener("queue@example.test", ["science"]);
    await addArticle({ slug: "ready-one", title: "Ready one", vertical: "science", audioKey: "k".repeat(64) });
    await addArticle({ slug: "waiting-one", title: "Waiting one", vertical: "science" });
    await addArticle({ slug: "other-topic", title: "Other topic", vertical: "sports" });
    const html = await (await browser.get(LISTEN_PATHS.queue)).text();
    expect(html).toMatch(/Ready one<\/a>[\s\S]*?badge-done">Ready</);
    expect(html).toMatch(/Waiting one<\/a>[\s\S]*?badge-pending">Waiting</);
    expect(html).not.toContain("Other topic");
    expect(html).toContain("Ready: 1 · Rendering: 0 · Waiting: 1 · Failed: 0");
    // Articles of the topics are heard in the feed and on their pages, not from the queue.
    expect(html).not.toContain("Listen now");
  });

  it("shows a shared page ready to add, under the page's one heading (the share target of the installed app)", async () => {
    const { browser } = await signedInListener("share@example.test", ["science"]);
    const shared = `${LISTEN_PATHS.share}?title=Briefe&text=${encodeURIComponent("Lies das: https://blog.example/briefe")}`;
    const html = await (await browser.get(shared)).text();
    expect(html.match(/<h[12][ >][^<]*/g)).toEqual(["<h1>Add a shared page"]);
    expect(html).toContain('value="https://blog.example/briefe"');
  });

  it("offers the listener's own link at once: its stream while it renders (issue 44 item 1, issue 45 item 4)", async () => {
    const { browser, subscription } = await signedInListener("queue-link@example.test", ["science"]);
    const added = await addLinkInDevelopment(subscription.token, sitePage("/news/harbour-ferries-wind"));
    const { job_id } = await added.json<{ job_id: string }>();
    const html = await (await browser.get(LISTEN_PATHS.queue)).text();
    const listen = urlsIn(html).filter((u) => u.includes("/stream.mp3"));
    expect(listen).toEqual([`${testVars.BASE_URL}/v1/jobs/${job_id}/stream.mp3`]);
  });

  it("shows every flo block with its articles and move buttons", async () => {
    const { browser } = await signedInListener("flo@example.test");
    await addArticle({ slug: "cells", title: "Cells", vertical: "science" });
    await addArticle({ slug: "stars", title: "Stars", vertical: "science" });
    const html = await (await browser.get(LISTEN_PATHS.flo)).text();
    for (const id of ["morning", "focus", "midday", "afternoon", "evening", "night"]) expect(html).toContain(`id="block-${id}"`);
    expect(html).toContain('<ol class="flo" data-block="night"');
    expect(html).toContain('aria-label="Move Stars up" disabled');
    expect(html).toContain('aria-label="Move Cells down" disabled');
  });
});

describe("listener pages: the flo follows the listener's topics", () => {
  it("shows only the blocks with a topic the listener follows, each with only those topics' articles, the one playing now open", async () => {
    const { browser } = await signedInListener("flo-topics@example.test", ["science"]);
    await addArticle({ slug: "cells", title: "Cells", vertical: "science" });
    await addArticle({ slug: "match-day", title: "Match day", vertical: "sports" });
    await addArticle({ slug: "gallery", title: "Gallery", vertical: "culture" });
    const html = await (await browser.get(LISTEN_PATHS.flo)).text();
    // Science is in the focus, evening and night blocks; the others are named once, without a queue.
    for (const id of ["focus", "evening", "night"]) expect(html).toContain(`id="block-${id}"`);
    for (const id of ["morning", "midday", "afternoon"]) expect(html).not.toContain(`id="block-${id}"`);
    expect(html).toContain("Without your topics: Morning briefing (05:00–09:00), Midday break (12:00–14:00), Afternoon (14:00–18:00).");
    expect(html).toContain("Cells");
    // Culture is a night and evening topic, but not this listener's.
    expect(html).not.toContain("Match day");
    expect(html).not.toContain("Gallery");
    expect(html).toContain('<p class="note">Topics: Science</p>');
    expect(html.match(/<details class="flo-block" open>/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});

describe("listener pages: headers and the token", () => {
  it("keep every token out of their URLs, and may not be framed, cached or indexed", async () => {
    const { browser, subscription } = await signedInListener("leak@example.test", ["science"]);
    await addArticle({ slug: "leak-check", title: "Leak check", vertical: "science" });
    const feedToken = feedTokenOf(subscription.feed_url);
    for (const path of PAGES) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      // The account token is never on a page; the feed token only inside the feed URL itself.
      expect(html, path).not.toContain(subscription.token);
      for (const url of urlsIn(html).filter((u) => u.includes(feedToken))) {
        expect(url, path).toMatch(/^(podcast|overcast|pktc|castro|antennapod-subscribe|podcastaddict|feed):\/\//);
      }
      expect(res.headers.get("Referrer-Policy"), path).toBe("same-origin");
      expect(res.headers.get("Content-Security-Policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
      expect(res.headers.get("X-Robots-Tag"), path).toBe("noindex");
    }
  });

  it("load their script and styles from the built assets of this origin (workers/web/static-files.ts; test-browser runs them)", async () => {
    const { html } = await signedInListener("assets@example.test");
    expect(html).toMatch(/<script type="module" src="\/assets\/listen-[A-Z0-9]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/listen-[A-Z0-9]+\.css">/);
    expect(html).not.toMatch(/<script>|<style>| style="/);
  });
});
