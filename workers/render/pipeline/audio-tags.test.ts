import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { probeAudio } from "../../../test/support/audio-probe";
import { addArticle } from "../../../test/support/articles";
import { store } from "../../../test/support/render-store";
import { narratedText } from "../../kernel/article-text";
import { audioObjectPath } from "../../kernel/audio-objects";
import { id3v24 } from "../engine/id3";
import { offlineSynthesizer } from "../engine/offline";
import { renderText } from "./render";
import { encodeStored } from "./store";

const ARTICLE = { title: "Tide Tables, Explained", publisher: "Harbour Weekly", bodyText: "Sailors trust the tables.\n\nThe moon keeps regular hours." };
const object = async (key: string, format: "mp3" | "opus") => new Uint8Array(await (await env.AUDIO.get(audioObjectPath(key, format)))!.arrayBuffer());

describe("the audio says what it is (ID3v2.4 in the MP3, Vorbis comments in the Opus)", () => {
  it("ffprobe reads the title, the publisher, the engine and voice, and that the voice is synthetic, from the stored MP3 and Opus", async () => {
    const result = await renderText(
      store,
      { text: narratedText(ARTICLE), voice: "en-US-female", title: ARTICLE.title, publisher: ARTICLE.publisher },
      { offline: offlineSynthesizer },
    );
    const mp3 = await object(result.key, "mp3");
    // The tag is part of the stored bytes, before the first frame; the recorded size (the feeds' enclosure length) counts it.
    expect(new TextDecoder().decode(mp3.subarray(0, 3))).toBe("ID3");
    expect(mp3[3]).toBe(4);
    const [row] = await store.findAudio([result.key]);
    expect(row.mp3Bytes).toBe(mp3.byteLength);
    const statement = "synthetic voice (eSpeak NG, en-US-female)";
    const probe = await probeAudio(mp3, "mp3");
    expect(probe.codec).toBe("mp3");
    expect(probe.tags).toMatchObject({
      title: ARTICLE.title,
      artist: ARTICLE.publisher,
      publisher: ARTICLE.publisher,
      comment: `AI-generated narration: ${statement}`,
      "AI-generated narration": statement,
      "TTS engine": "eSpeak NG",
      "TTS voice": "en-US-female",
    });
    const opus = await probeAudio(await object(result.key, "opus"), "opus");
    expect(opus.codec).toBe("opus");
    const tags = Object.fromEntries(Object.entries(opus.tags).map(([k, v]) => [k.toUpperCase(), v]));
    expect(tags).toMatchObject({
      TITLE: ARTICLE.title,
      ARTIST: ARTICLE.publisher,
      ORGANIZATION: ARTICLE.publisher,
      COMMENT: `AI-generated narration: ${statement}`,
      AI_GENERATED: statement,
      TTS_ENGINE: "eSpeak NG",
      TTS_VOICE: "en-US-female",
    });
  });

  it("raw text without a title still names the engine and voice and says the voice is synthetic, in both; an Opus built later too", async () => {
    const result = await renderText(store, { text: "Just some text to read.", voice: "en-GB-male" }, { offline: offlineSynthesizer });
    const probe = await probeAudio(await object(result.key, "mp3"), "mp3");
    expect(probe.tags.title).toBeUndefined();
    expect(probe.tags["AI-generated narration"]).toBe("synthetic voice (eSpeak NG, en-GB-male)");
    // Audio rendered before Opus came with the MP3: the Opus built from the master says the same.
    await env.AUDIO.delete(audioObjectPath(result.key, "opus"));
    await env.DB.prepare("UPDATE audio_objects SET opus_bytes = NULL WHERE key = ?").bind(result.key).run();
    await encodeStored(store, result.key, "opus");
    const opus = await probeAudio(await object(result.key, "opus"), "opus");
    expect(Object.fromEntries(Object.entries(opus.tags).map(([k, v]) => [k.toUpperCase(), v]))).toMatchObject({
      AI_GENERATED: "synthetic voice (eSpeak NG, en-GB-male)",
    });
  });

  it("a claimed job carries its article's title and publisher to the render", async () => {
    const article = await addArticle({ title: ARTICLE.title, publisher: ARTICLE.publisher, bodyText: ARTICLE.bodyText });
    await env.DB.prepare("INSERT INTO render_jobs (id, article_id, state) VALUES ('job-tags', ?, 'queued')").bind(article.id).run();
    expect(await store.claimJob("job-tags")).toMatchObject({ title: ARTICLE.title, publisher: ARTICLE.publisher });
  });
});

describe("id3v24", () => {
  it("writes a header with the synchsafe size and UTF-8 frames, each with its own synchsafe size", () => {
    const tag = id3v24([
      { id: "TIT2", text: "Café" },
      { id: "TXXX", description: "a", text: "b" },
    ]);
    expect([...tag.subarray(0, 6)]).toEqual([0x49, 0x44, 0x33, 4, 0, 0]);
    // TIT2: encoding byte + 5 bytes of UTF-8; TXXX: encoding, "a", NUL, "b".
    expect([...tag.subarray(6, 10)]).toEqual([0, 0, 0, 10 + 6 + 10 + 4]);
    expect(new TextDecoder().decode(tag.subarray(10, 14))).toBe("TIT2");
    expect([...tag.subarray(14, 20)]).toEqual([0, 0, 0, 6, 0, 0]);
    expect([...tag.subarray(20, 26)]).toEqual([3, ...new TextEncoder().encode("Café")]);
    // Sizes past 127 use seven bits a byte.
    expect([...id3v24([{ id: "TIT2", text: "x".repeat(200) }]).subarray(6, 10)]).toEqual([0, 0, 1, 10 + 201 - 128]);
  });
});
