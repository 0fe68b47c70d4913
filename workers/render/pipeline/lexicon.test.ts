import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeFetch, tonePcm16 } from "../../../test/support/fake-fetch";
import { audioObjects, database, lexiconEntries } from "../../db/index";
import { lexiconDigest, type LexiconEntry } from "../../kernel/lexicon";
import { offlineSynthesizer } from "../engine/offline";
import { resetHealth } from "../providers/health";
import { openAiSynthesizer } from "../providers/openai";
import { cacheKey } from "./cache-key";
import { renderText } from "./render";

const nguyen: LexiconEntry = { grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" };
const offline = { offline: offlineSynthesizer };

async function setEntry(entry: LexiconEntry, publisher = "") {
  await database(env)
    .insert(lexiconEntries)
    .values({ publisher, ...entry })
    .onConflictDoUpdate({ target: [lexiconEntries.publisher, lexiconEntries.grapheme], set: { phoneme: entry.phoneme, alias: entry.alias } });
}

const row = (key: string) => database(env).select().from(audioObjects).where(eq(audioObjects.key, key)).get();

beforeEach(() => resetHealth());

describe("the pronunciation lexicon in the render and its cache key", () => {
  it("keys a text by the entries that apply to it, not by the whole lexicon: a text no entry touches keys as before", async () => {
    await setEntry(nguyen);
    await setEntry({ grapheme: "Worcester", phoneme: "ˈwʊstə", alias: null });
    const named = await renderText(store, { text: "Ms Nguyen visited the harbour." }, offline);
    const digest = await lexiconDigest([nguyen]);
    expect(named.key).toBe(await cacheKey("offline", "en-US-female", "Ms Nguyen visited the harbour.", digest));
    expect(await row(named.key)).toMatchObject({ lexiconDigest: digest });
    const plain = await renderText(store, { text: "The tide came in at noon." }, offline);
    expect(plain.key).toBe(await cacheKey("offline", "en-US-female", "The tide came in at noon."));
    expect(await row(plain.key)).toMatchObject({ lexiconDigest: null });
  });

  it("a changed entry renders again the text that contains its word, and no other", async () => {
    await setEntry(nguyen);
    const named = await renderText(store, { text: "Ms Nguyen visited the harbour." }, offline);
    const plain = await renderText(store, { text: "The tide came in at noon." }, offline);
    await setEntry({ ...nguyen, phoneme: "nuːˈjɛn" });
    const namedAgain = await renderText(store, { text: "Ms Nguyen visited the harbour." }, offline);
    expect(namedAgain).toMatchObject({ cached: false });
    expect(namedAgain.key).not.toBe(named.key);
    expect(await renderText(store, { text: "The tide came in at noon." }, offline)).toEqual({
      ...plain,
      cached: true,
      characters_synthesized: 0,
      paragraphs_reused: 1,
      paragraphs_encoded: 0,
    });
  });

  it("uses the publisher's own entry over the global one, and hands an alias engine the alias", async () => {
    await setEntry(nguyen);
    await setEntry({ grapheme: "Nguyen", phoneme: null, alias: "Nwen" }, "Coast Weekly");
    const far = fakeFetch(() => new Response(tonePcm16(0.4, 24_000)));
    const openai = { openai: openAiSynthesizer("sk", far.fetch) };
    await renderText(store, { text: "Ms Nguyen visited.", voice: "nova", publisher: "Coast Weekly" }, openai);
    await renderText(store, { text: "Ms Nguyen visited.", voice: "nova", publisher: "Inland Daily" }, openai);
    await renderText(store, { text: "Ms Nguyen visited.", voice: "nova" }, openai);
    expect(far.sent.map((s) => JSON.parse(s.body).input)).toEqual(["Ms Nwen visited.", "Ms Win visited."]);
  });

  it("gives an alias engine no entry it cannot say: a phoneme-only entry leaves its key and request alone", async () => {
    await setEntry({ grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: null });
    const far = fakeFetch(() => new Response(tonePcm16(0.4, 24_000)));
    const result = await renderText(store, { text: "Ms Nguyen visited.", voice: "nova" }, { openai: openAiSynthesizer("sk", far.fetch) });
    expect(result.key).toBe(await cacheKey("openai", "nova", "Ms Nguyen visited."));
    expect(JSON.parse(far.sent[0].body).input).toBe("Ms Nguyen visited.");
  });
});
