import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../db";
import { loadFlo } from "../flo";
import { addArticle } from "../../../test/support/articles";
import { call } from "../../../test/support/client";
import { magicOf, readOutbox, subscribeVia, waitForOutbox } from "../../../test/support/listeners";
import { Browser } from "../../../test/support/oauth-agent";
import { listenerRow, signedInListener } from "../../../test/support/listen-pages";
import { testVars } from "../../../test/vars";
import { LISTEN_PATHS } from "./paths";

/** Every write of the listener pages: what it changes, and that CSRF, a missing session or bad input change nothing. */

const location = (res: Response) => new URL(res.headers.get("Location")!, testVars.WEB_URL);

async function manualOrder(email: string, block: string) {
  const row = await listenerRow(email);
  return (await loadFlo(database(env), row!.id)).find((b) => b.id === block)!.manual_order;
}

/** A signed-in listener with three science articles (the night block's topics), newest first: c, b, a. */
async function withNightArticles(email: string) {
  const signed = await signedInListener(email);
  const day = Date.UTC(2026, 10, 20);
  for (const [i, slug] of ["a", "b", "c"].entries())
    await addArticle({ slug, title: slug.toUpperCase(), vertical: "science", createdAt: new Date(day + i * 60_000) });
  return signed;
}

describe("subscribe on the page", () => {
  it("subscribes, mails a sign-in link back to /listen, and shows no token", async () => {
    const browser = new Browser();
    const res = await browser.post(LISTEN_PATHS.subscribe, { email: "New@Example.test", verticals: "science" });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("We mailed a sign-in link to <strong>new@example.test</strong>");
    const row = await listenerRow("new@example.test");
    expect(row?.verticals).toEqual(["science"]);
    const [mail] = await waitForOutbox(1);
    expect(mail.to).toBe("new@example.test");
    const link = new URL(/https:\/\/web\.test\/sign-in\/confirm\?\S+/.exec(mail.text)![0]);
    expect(link.searchParams.get("next")).toBe("/listen");
    const done = await browser.post("/sign-in/confirm", { magic: magicOf(mail), next: "/listen" });
    expect(location(done).pathname).toBe("/listen");
    expect(await (await browser.get(LISTEN_PATHS.home)).text()).toContain("Your private feed");
  });

  it("answers a known address as a new one (same page, a mail, no token)", async () => {
    const { token } = await subscribeVia("known@example.test", ["tech"]);
    const html = await (await new Browser().post(LISTEN_PATHS.subscribe, { email: "known@example.test", verticals: "news" })).text();
    expect(html).toContain("We mailed a sign-in link to <strong>known@example.test</strong>");
    expect(html).not.toContain(token);
    expect((await waitForOutbox(1))[0].to).toBe("known@example.test");
  });

  it("refuses a bad address, an unknown topic and another site's form, and changes nothing", async () => {
    const browser = new Browser();
    expect((await browser.post(LISTEN_PATHS.subscribe, { email: "not-an-address", verticals: "science" })).status).toBe(422);
    const params = new URLSearchParams([
      ["email", "x@example.test"],
      ["verticals", "science"],
      ["verticals", "astrology"],
    ]);
    const bad = await call(new URL(LISTEN_PATHS.subscribe, testVars.WEB_URL).href, {
      method: "POST",
      headers: { Origin: testVars.WEB_URL, "Content-Type": "application/x-www-form-urlencoded" },
      body: params.toString(),
    });
    expect(bad.status).toBe(422);
    expect((await browser.post(LISTEN_PATHS.subscribe, { email: "x@example.test" }, "https://evil.example")).status).toBe(403);
    expect(await listenerRow("x@example.test")).toBeUndefined();
    expect(await env.DB.prepare("select count(*) as n from listeners").first<number>("n")).toBe(0);
    expect(await readOutbox()).toEqual([]);
  });
});

describe("writes of a signed-in listener", () => {
  it("saves the verticals and the pin together, and refuses an unknown one", async () => {
    const { browser, csrf } = await signedInListener("verticals@example.test", ["tech"]);
    const body = new URLSearchParams([
      ["csrf", csrf],
      ["verticals", "science"],
      ["verticals", "parenting"],
      ["pinned", "science"],
    ]);
    const res = await call(new URL(LISTEN_PATHS.verticals, testVars.WEB_URL).href, {
      method: "POST",
      headers: {
        Origin: testVars.WEB_URL,
        Cookie: `__Host-session=${browser.cookies.get("__Host-session")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: body.toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(location(res).search).toBe("?done=verticals");
    let row = await listenerRow("verticals@example.test");
    expect([row!.verticals, row!.preferredVertical]).toEqual([["science", "young_moms"], "science"]);
    expect(await (await browser.get(location(res))).text()).toContain("Your verticals are saved.");

    expect((await browser.post(LISTEN_PATHS.verticals, { csrf, verticals: "astrology", pinned: "" })).status).toBe(422);
    expect((await browser.post(LISTEN_PATHS.verticals, { csrf, verticals: "tech", pinned: "astrology" })).status).toBe(422);
    row = await listenerRow("verticals@example.test");
    expect([row!.verticals, row!.preferredVertical]).toEqual([["science", "young_moms"], "science"]);

    expect((await browser.post(LISTEN_PATHS.verticals, { csrf, pinned: "" })).status).toBe(303);
    row = await listenerRow("verticals@example.test");
    expect([row!.verticals, row!.preferredVertical]).toEqual([[], null]);
  });

  it("turns the digest off and on, and refuses anything else", async () => {
    const { browser, csrf } = await signedInListener("digest@example.test");
    expect((await browser.post(LISTEN_PATHS.digest, { csrf, digest: "off" })).status).toBe(303);
    expect((await listenerRow("digest@example.test"))!.active).toBe(false);
    expect((await browser.post(LISTEN_PATHS.digest, { csrf, digest: "maybe" })).status).toBe(422);
    expect((await listenerRow("digest@example.test"))!.active).toBe(false);
    expect((await browser.post(LISTEN_PATHS.digest, { csrf, digest: "on" })).status).toBe(303);
    expect((await listenerRow("digest@example.test"))!.active).toBe(true);
  });

  it("persists a flo block's new order as its manual_order (the script's write), and refuses slugs the block does not show", async () => {
    const { browser, csrf } = await withNightArticles("order@example.test");
    const post = (order: string[], headers: Record<string, string> = {}) =>
      call(new URL(LISTEN_PATHS.floOrder, testVars.WEB_URL).href, {
        method: "POST",
        headers: {
          Origin: testVars.WEB_URL,
          Cookie: `__Host-session=${browser.cookies.get("__Host-session")}`,
          "Content-Type": "application/x-www-form-urlencoded",
          ...headers,
        },
        body: new URLSearchParams([["csrf", csrf], ["block", "night"], ...order.map((s) => ["order", s])]).toString(),
        redirect: "manual",
      });
    const saved = await post(["a", "c", "b"], { Accept: "application/json" });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ manual_order: ["a", "c", "b"] });
    expect(await manualOrder("order@example.test", "night")).toEqual(["a", "c", "b"]);
    const page = await (await browser.get(LISTEN_PATHS.flo)).text();
    // Science is a topic of other blocks too: read the night block's list.
    const html = page.slice(page.indexOf('data-block="night"'));
    expect(html.indexOf('data-slug="a"')).toBeLessThan(html.indexOf('data-slug="c"'));
    expect(html.indexOf('data-slug="c"')).toBeLessThan(html.indexOf('data-slug="b"'));

    for (const bad of [["a", "a"], ["a", "not-shown"], []]) expect((await post(bad)).status, bad.join()).toBe(422);
    expect((await browser.post(LISTEN_PATHS.floOrder, { csrf, block: "teatime", order: "a" })).status).toBe(422);
    expect(await manualOrder("order@example.test", "night")).toEqual(["a", "c", "b"]);
  });

  it("moves one article up or down with the buttons' forms, and refuses a move off the end", async () => {
    const { browser, csrf } = await withNightArticles("move@example.test");
    const res = await browser.post(LISTEN_PATHS.floMove, { csrf, block: "night", slug: "a", direction: "up" });
    expect(res.status).toBe(303);
    expect(location(res).hash).toBe("#block-night");
    expect(await manualOrder("move@example.test", "night")).toEqual(["c", "a", "b"]);
    expect((await browser.post(LISTEN_PATHS.floMove, { csrf, block: "night", slug: "c", direction: "up" })).status).toBe(422);
    expect((await browser.post(LISTEN_PATHS.floMove, { csrf, block: "night", slug: "a", direction: "sideways" })).status).toBe(422);
    expect((await browser.post(LISTEN_PATHS.floMove, { csrf, block: "night", slug: "zzz", direction: "down" })).status).toBe(422);
    expect(await manualOrder("move@example.test", "night")).toEqual(["c", "a", "b"]);
  });

  it("rotates: the old token and feed URL stop working, this browser stays signed in with the new URL, others are signed out", async () => {
    const { browser, csrf, subscription } = await signedInListener("rotate@example.test");
    const other = await signedInListener("rotate@example.test").then((s) => s.browser);
    const res = await browser.post(LISTEN_PATHS.rotate, { csrf });
    expect(res.status).toBe(303);
    expect(location(res).search).toBe("?done=rotated");
    expect((await call(`/v1/listeners/${subscription.token}`)).status).toBe(404);
    expect((await call(new URL(subscription.feed_url).pathname)).status).toBe(404);
    const html = await (await browser.get(location(res))).text();
    expect(html).toContain("You have a new private feed URL");
    expect(html).not.toContain(subscription.feed_url);
    expect((await other.get(LISTEN_PATHS.home)).status).toBe(200);
    expect(await (await other.get(LISTEN_PATHS.home)).text()).not.toContain("Your private feed");
  });

  it("deletes the account only with the confirmation page's button, then signs the browser out", async () => {
    const { browser, csrf, subscription } = await signedInListener("delete@example.test");
    expect(await (await browser.get(LISTEN_PATHS.remove)).text()).toContain('name="confirm" value="delete"');
    expect((await browser.post(LISTEN_PATHS.remove, { csrf })).status).toBe(422);
    expect(await listenerRow("delete@example.test")).toBeDefined();
    const res = await browser.post(LISTEN_PATHS.remove, { csrf, confirm: "delete" });
    expect(res.status).toBe(303);
    expect(location(res).search).toBe("?done=deleted");
    expect(browser.cookies.has("__Host-session")).toBe(false);
    expect(await listenerRow("delete@example.test")).toBeUndefined();
    expect((await call(`/v1/listeners/${subscription.token}`)).status).toBe(404);
    expect((await call(new URL(subscription.feed_url).pathname)).status).toBe(404);
  });
});

describe("every write refuses CSRF and a missing session, and changes nothing", () => {
  const WRITES: [string, Record<string, string>][] = [
    [LISTEN_PATHS.verticals, { verticals: "science", pinned: "science" }],
    [LISTEN_PATHS.digest, { digest: "off" }],
    [LISTEN_PATHS.floOrder, { block: "night", order: "a" }],
    [LISTEN_PATHS.floMove, { block: "night", slug: "a", direction: "down" }],
    [LISTEN_PATHS.rotate, {}],
    [LISTEN_PATHS.remove, { confirm: "delete" }],
  ];

  it("without the form token, with a wrong one, from another site, or signed out", async () => {
    const { browser, csrf, subscription } = await withNightArticles("csrf@example.test");
    const before = JSON.stringify(await listenerRow("csrf@example.test"));
    for (const [path, fields] of WRITES) {
      expect((await browser.post(path, fields)).status, `${path} without token`).toBe(403);
      expect((await browser.post(path, { ...fields, csrf: "0".repeat(64) })).status, `${path} wrong token`).toBe(403);
      expect((await browser.post(path, { ...fields, csrf }, "https://evil.example")).status, `${path} cross-site`).toBe(403);
      const signedOut = await new Browser().post(path, { ...fields, csrf });
      expect(signedOut.status, `${path} signed out`).toBe(303);
      expect(location(signedOut).pathname).toBe("/sign-in");
    }
    expect(JSON.stringify(await listenerRow("csrf@example.test"))).toBe(before);
    expect(await manualOrder("csrf@example.test", "night")).toEqual([]);
    expect((await call(`/v1/listeners/${subscription.token}`)).status).toBe(200);
  });
});
