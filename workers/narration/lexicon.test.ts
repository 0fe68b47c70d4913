import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { adminHeaders, apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { audioObjects, database, renderJobs } from "../db";
import { narratedText } from "../kernel/article-text";
import { entriesFor, lexiconDigest, type LexiconEntry } from "../kernel/lexicon";
import { keyedParagraphs } from "../kernel/normalize-text";
import { issuePublisherKey } from "../kernel/publisher-keys";
import type { RenderStoreRpc } from "../kernel/render-contract";

const nguyen = { grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" };
const sql = { grapheme: "SQL", alias: "sequel" };

const put = (path: string, entries: unknown[], headers: Record<string, string>) => call(path, jsonBody("PUT", { entries }, headers));
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("the global lexicon (admin token)", () => {
  it("adds, replaces, lists and removes entries; the grapheme is normalised as narrated text is", async () => {
    expect((await put("/v1/lexicon/entries", [nguyen], {})).status).toBe(401);
    expect((await put("/v1/lexicon/entries", [nguyen], apiKeyHeaders)).status).toBe(401);
    const added = await put("/v1/lexicon/entries", [nguyen, sql, { grapheme: "O’Brien", alias: "Oh Bryan" }], adminHeaders);
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual({
      publisher: null,
      entries: [
        { grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" },
        { grapheme: "O'Brien", phoneme: null, alias: "Oh Bryan" },
        { grapheme: "SQL", phoneme: null, alias: "sequel" },
      ],
    });
    await put("/v1/lexicon/entries", [{ grapheme: "SQL", phoneme: "ˈsiːkwəl" }], adminHeaders);
    const listed = await (await call("/v1/lexicon/entries", { headers: adminHeaders })).json<{ entries: LexiconEntry[] }>();
    expect(listed.entries.find((e) => e.grapheme === "SQL")).toEqual({ grapheme: "SQL", phoneme: "ˈsiːkwəl", alias: null });
    const removed = await call("/v1/lexicon/entries?grapheme=SQL", { method: "DELETE", headers: adminHeaders });
    expect(await removed.json()).toEqual({ deleted: 1 });
    expect(await (await call("/v1/lexicon/entries?grapheme=SQL", { method: "DELETE", headers: adminHeaders })).json()).toEqual({ deleted: 0 });
  });

  it("refuses an entry with neither phoneme nor alias, and a grapheme without a letter, changing nothing", async () => {
    const res = await put("/v1/lexicon/entries", [nguyen, { grapheme: "Nobody" }], adminHeaders);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["body", "entries", 1], msg: "an entry needs a phoneme, an alias or both" }] });
    expect((await put("/v1/lexicon/entries", [{ grapheme: "--", alias: "dash" }], adminHeaders)).status).toBe(422);
    const listed = await (await call("/v1/lexicon/entries", { headers: adminHeaders })).json<{ entries: unknown[] }>();
    expect(listed.entries).toEqual([]);
  });

  it("exports a W3C PLS document and imports one, merged or in place of the lexicon", async () => {
    await put("/v1/lexicon/entries", [nguyen, sql], adminHeaders);
    const exported = await call("/v1/lexicon/entries?format=pls", { headers: adminHeaders });
    expect(exported.headers.get("content-type")).toBe("application/pls+xml; charset=utf-8");
    const pls = await exported.text();
    expect(pls).toContain('<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa"');
    expect(pls).toContain("<grapheme>Nguyen</grapheme>\n    <phoneme>ˈŋwɪn</phoneme>\n    <alias>Win</alias>");

    const other = pls.replace("<grapheme>SQL</grapheme>", "<grapheme>MySQL</grapheme>");
    await call("/v1/lexicon/import", jsonBody("POST", { pls: other }, adminHeaders));
    const merged = await (await call("/v1/lexicon/entries", { headers: adminHeaders })).json<{ entries: LexiconEntry[] }>();
    expect(merged.entries.map((e) => e.grapheme)).toEqual(["MySQL", "Nguyen", "SQL"]);
    const replaced = await call("/v1/lexicon/import", jsonBody("POST", { pls: other, replace: true }, adminHeaders));
    expect((await replaced.json<{ entries: LexiconEntry[] }>()).entries.map((e) => e.grapheme)).toEqual(["MySQL", "Nguyen"]);
  });

  it("refuses a document that is not a PLS lexicon in IPA with a 422 naming the problem, and changes nothing", async () => {
    await put("/v1/lexicon/entries", [nguyen], adminHeaders);
    const sampa = `<lexicon version="1.0" alphabet="x-sampa"><lexeme><grapheme>Zed</grapheme><phoneme>zEd</phoneme></lexeme></lexicon>`;
    const res = await call("/v1/lexicon/import", jsonBody("POST", { pls: sampa, replace: true }, adminHeaders));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: [{ loc: ["body", "pls"], msg: 'the <phoneme> of "Zed" is in the alphabet "x-sampa"; only ipa is taken', type: "pls_invalid" }],
    });
    const doctype = await call("/v1/lexicon/import", jsonBody("POST", { pls: `<!DOCTYPE x [<!ENTITY a "b">]><lexicon/>` }, adminHeaders));
    expect(doctype.status).toBe(422);
    const listed = await (await call("/v1/lexicon/entries", { headers: adminHeaders })).json<{ entries: LexiconEntry[] }>();
    expect(listed.entries.map((e) => e.grapheme)).toEqual(["Nguyen"]);
  });

  it.each([
    ["a lone surrogate by character reference", "Zed&#xD800;"],
    ["a control character by character reference", "Zed&#x1;"],
    ["a raw control character", "Zed\u0007"],
    ["a raw lone surrogate", "Zed\uDC00"],
  ])("refuses %s in an imported entry with a 422, and changes nothing (issue 40 item 13)", async (_, grapheme) => {
    await put("/v1/lexicon/entries", [nguyen], adminHeaders);
    const pls = `<lexicon version="1.0" alphabet="ipa"><lexeme><grapheme>${grapheme}</grapheme><alias>Zed&#x1F;</alias></lexeme></lexicon>`;
    for (const init of [
      jsonBody("POST", { pls, replace: true }, adminHeaders),
      { method: "POST", body: pls, headers: { ...adminHeaders, "content-type": "application/pls+xml" } },
    ]) {
      const res = await call("/v1/lexicon/import?replace=true", init);
      expect(res.status).toBe(422);
    }
    const listed = await (await call("/v1/lexicon/entries", { headers: adminHeaders })).json<{ entries: LexiconEntry[] }>();
    expect(listed.entries).toEqual([expect.objectContaining({ grapheme: "Nguyen" })]);
  });

  // XML 1.0 allows DEL and the C1 controls (U+007F to U+009F, CSI among them), which no other input may hold (core/text.ts).
  it.each([
    ["DEL", "&#x7F;"],
    ["a C1 control (CSI)", "&#x9B;"],
    ["NEL", "&#133;"],
  ])("refuses %s by character reference in a phoneme or an alias with a 422, and changes nothing (issue 40 item 13)", async (_, ref) => {
    await put("/v1/lexicon/entries", [nguyen], adminHeaders);
    for (const field of ["phoneme", "alias"]) {
      const pls = `<lexicon version="1.0" alphabet="ipa"><lexeme><grapheme>Zed</grapheme><${field}>z${ref}d</${field}></lexeme></lexicon>`;
      const res = await call("/v1/lexicon/import?replace=true", {
        method: "POST",
        body: pls,
        headers: { ...adminHeaders, "content-type": "application/pls+xml" },
      });
      expect(res.status).toBe(422);
    }
    const listed = await (await call("/v1/lexicon/entries", { headers: adminHeaders })).json<{ entries: LexiconEntry[] }>();
    expect(listed.entries).toEqual([expect.objectContaining({ grapheme: "Nguyen" })]);
  });
});

describe("a publisher's lexicon (its key, or the operator's)", () => {
  it("is managed with the publisher's key, is a 404 to another publisher's key, and wins over the global lexicon in renders", async () => {
    const { key } = await issuePublisherKey(env, "Coast Weekly");
    const { key: otherKey } = await issuePublisherKey(env, "Inland Daily");
    const path = `/v1/publishers/${encodeURIComponent("Coast Weekly")}/lexicon/entries`;
    expect((await put(path, [sql], bearer(key))).status).toBe(200);
    expect((await put(path, [sql], bearer(otherKey))).status).toBe(404);
    expect((await call(path, { headers: bearer(otherKey) })).status).toBe(404);
    expect((await put(path, [{ grapheme: "Nguyen", alias: "Nwen" }], apiKeyHeaders)).status).toBe(200);
    // The admin token manages every publisher's lexicon too (workers/narration/publisher-lexicon-access.test.ts).
    expect((await put(path, [sql], adminHeaders)).status).toBe(200);
    await put("/v1/lexicon/entries", [nguyen], adminHeaders);

    // What the render Worker reads through RenderStore: the global lexicon, the publisher's entries over it.
    const store = (exports as unknown as { RenderStore: RenderStoreRpc }).RenderStore;
    expect(await store.lexiconFor("Coast Weekly")).toEqual(
      expect.arrayContaining([
        { grapheme: "Nguyen", phoneme: null, alias: "Nwen" },
        { grapheme: "SQL", phoneme: null, alias: "sequel" },
      ]),
    );
    expect(await store.lexiconFor("Inland Daily")).toEqual([{ grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" }]);
    expect(await store.lexiconFor(null)).toEqual([{ grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" }]);
  });
});

/** Gives an article audio as a render of `provider` that applied `applied` would have recorded it. */
async function narrate(article: { id: number; slug: string }, provider: string, applied: LexiconEntry[]) {
  const key = article.slug.padEnd(64, "0").slice(0, 64);
  await database(env)
    .insert(audioObjects)
    .values({ key, provider, voice: "v", durationSeconds: 3, mp3Bytes: 10, lexiconDigest: await lexiconDigest(applied) });
  await env.DB.prepare("UPDATE articles SET audio_key = ? WHERE id = ?").bind(key, article.id).run();
  return key;
}

describe("narrations a lexicon change touches", () => {
  it("lists exactly the articles whose applicable entries changed, and queues a render of each of them only", async () => {
    const named = await addArticle({ slug: "names", publisher: "Coast Weekly", title: "A visit", bodyText: "Ms Nguyen visited the harbour." });
    const plain = await addArticle({ slug: "plain", publisher: "Coast Weekly", title: "Tides", bodyText: "The tide came in at noon." });
    const acronym = await addArticle({ slug: "acronym", publisher: "Inland Daily", title: "Data", bodyText: "They query SQL all day." });
    await narrate(named, "offline", []);
    await narrate(plain, "offline", []);
    // Rendered by an alias engine with SQL's alias applied: still current while the entry stands.
    const sqlEntry = { grapheme: "SQL", phoneme: null, alias: "sequel" };
    await narrate(acronym, "openai", [sqlEntry]);
    await put("/v1/lexicon/entries", [sqlEntry], adminHeaders);
    expect((await (await call("/v1/lexicon/affected", { headers: adminHeaders })).json<{ articles: unknown[] }>()).articles).toEqual([]);

    await put("/v1/lexicon/entries", [nguyen], adminHeaders);
    const affected = await (await call("/v1/lexicon/affected", { headers: adminHeaders })).json<{ articles: { slug: string; graphemes: string[] }[] }>();
    expect(affected.articles).toEqual([expect.objectContaining({ slug: "names", provider: "offline", graphemes: ["Nguyen"], rendering: false })]);
    // The applicable entries are worked out as the render does: on the text as narrated, for the engine that spoke.
    expect(entriesFor([nguyen], keyedParagraphs(narratedText(named)).join("\n"), "espeak")).toHaveLength(1);

    // The publisher's view sees only its own articles; a removed entry touches what applied it.
    const { key } = await issuePublisherKey(env, "Inland Daily");
    await call("/v1/lexicon/entries?grapheme=SQL", { method: "DELETE", headers: adminHeaders });
    const inland = await (await call(`/v1/publishers/${encodeURIComponent("Inland Daily")}/lexicon/affected`, { headers: bearer(key) })).json<{
      articles: { slug: string; graphemes: string[] }[];
    }>();
    expect(inland.articles).toEqual([expect.objectContaining({ slug: "acronym", graphemes: [] })]);

    const send = await call("/v1/lexicon/rerender", { method: "POST", headers: adminHeaders });
    expect(send.status).toBe(202);
    const { queued, remaining } = await send.json<{ queued: { slug: string; job_id: string }[]; remaining: number }>();
    expect(queued.map((q) => q.slug).sort()).toEqual(["acronym", "names"]);
    expect(remaining).toBe(0);
    const jobs = await database(env).select().from(renderJobs);
    expect(jobs.map((j) => j.articleId).sort()).toEqual([named.id, acronym.id].sort());
    // A second request while those renders are queued queues nothing more.
    expect(await (await call("/v1/lexicon/rerender", { method: "POST", headers: adminHeaders })).json()).toEqual({ queued: [], remaining: 0 });
  });
});
