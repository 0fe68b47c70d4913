import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { probeAudio } from "../../../test/support/audio-probe";
import { store } from "../../../test/support/render-store";
import { testVars } from "../../../test/vars";
import { narratedText } from "../../kernel/article-text";
import { audioObjectPath } from "../../kernel/audio-objects";
import { offlineSynthesizer } from "../engine/offline";
import { concatBytes } from "../engine/pcm";
import { memoryBytes } from "../engine/vendor/c2pa.js";
import { c2paSidecarPath } from "../../kernel/audio-objects";
import { MAX_SIGNED_BYTES, readC2pa, signedMp3Tag, useC2pa } from "./c2pa";
import { renderText } from "./render";
import { encodeStored } from "./store";

/** The CA of the test credentials as PEM: the reader's trust anchor, so that a manifest it signed validates as Trusted. */
function testCa(): string {
  const ca = testVars.C2PA_CERTIFICATE_CHAIN.split(",").at(-1)!;
  return `-----BEGIN CERTIFICATE-----\n${ca.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
}

const ARTICLE = { title: "Tide Tables, Explained", publisher: "Harbour Weekly", bodyText: "Sailors trust the tables.\n\nThe moon keeps regular hours." };
const URL_OF_ARTICLE = "https://harbour.example/tide-tables";
const object = async (key: string, format: "mp3" | "wav" | "opus") => new Uint8Array(await (await env.AUDIO.get(audioObjectPath(key, format)))!.arrayBuffer());
type Store = {
  validation_state: string;
  active_manifest: string;
  manifests: Record<string, { title: string; format: string; assertions: { label: string; data: Record<string, unknown> }[] }>;
  validation_results: { activeManifest: { success: { code: string }[]; failure: { code: string }[] } };
  data_hash: { hash: string; exclusions: { start: number; length: number }[] } | null;
};

const base64Sha256 = async (bytes: Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))));

/** The size of an MP3's ID3 tag: its header and the synchsafe size after it (ID3v2.4 §3.1). */
const tagLength = (mp3: Uint8Array) => 10 + ((mp3[6] << 21) | (mp3[7] << 14) | (mp3[8] << 7) | mp3[9]);

/** ARTICLE rendered in `voice` with signing on. */
async function signedArticle(voice: string) {
  useC2pa(testVars);
  const input = { text: narratedText(ARTICLE), voice, title: ARTICLE.title, publisher: ARTICLE.publisher, url: URL_OF_ARTICLE };
  return renderText(store, input, { offline: offlineSynthesizer });
}

// Other tests of this isolate render unsigned, as before: signing is switched on here only.
afterEach(() => useC2pa({}));

describe("C2PA manifests (c2pa-rs in WebAssembly), read back with c2pa-rs's Reader", () => {
  it("a rendered MP3 carries a signed manifest: created by an algorithm, from the article, naming the engine, the voice and the article's address", async () => {
    const result = await signedArticle("en-US-female");
    const mp3 = await object(result.key, "mp3");
    const [row] = await store.findAudio([result.key]);
    expect(row.mp3Bytes).toBe(mp3.byteLength); // the feeds' enclosure length counts the manifest

    const manifests = (await readC2pa(mp3, "mp3", testCa())) as unknown as Store;
    expect(manifests.validation_state).toBe("Trusted");
    expect(manifests.validation_results.activeManifest.failure).toEqual([]);
    const active = manifests.manifests[manifests.active_manifest];
    expect(active.title).toBe(ARTICLE.title);
    const actions = active.assertions.find((a) => a.label === "c2pa.actions.v2")!.data.actions as Record<string, unknown>[];
    expect(actions[0]).toMatchObject({
      action: "c2pa.created",
      // eSpeak NG's voices come from rules, not training: IPTC algorithmicMedia.
      digitalSourceType: "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia",
      softwareAgent: { name: "eSpeak NG" },
      parameters: { engine: "eSpeak NG", voice: "en-US-female", article: URL_OF_ARTICLE },
    });
    expect(active.assertions.find((a) => a.label === "org.narration-platform.narration")!.data).toMatchObject({
      synthetic_voice: true,
      statement: "AI-generated narration: synthetic voice (eSpeak NG, en-US-female)",
      title: ARTICLE.title,
      publisher: ARTICLE.publisher,
      article_url: URL_OF_ARTICLE,
    });
    // Without the signer's CA among the trusted ones, the signature still validates; the signer is unknown.
    const untrusted = (await readC2pa(mp3, "mp3")) as unknown as Store;
    expect(untrusted.validation_state).toBe("Valid");
    expect(untrusted.validation_results.activeManifest.failure.map((f) => f.code)).toEqual(["signingCredential.untrusted"]);

    // The data hash leaves out the manifest's bytes alone, inside the tag's GEOB frame.
    expect(manifests.data_hash!.exclusions).toHaveLength(1);
    expect(manifests.data_hash!.exclusions[0].start + manifests.data_hash!.exclusions[0].length).toBe(tagLength(mp3));

    // The ID3 frames are still there beside the manifest, and the file still plays as it did.
    const probe = await probeAudio(mp3, "mp3");
    expect(probe.tags).toMatchObject({ title: ARTICLE.title, "AI-generated narration": "synthetic voice (eSpeak NG, en-US-female)" });
    expect(probe.duration).toBeCloseTo(result.duration_seconds, 0);
  });

  it("a WAV built from the master is signed too, and a changed byte breaks the manifest", async () => {
    useC2pa(testVars);
    const result = await renderText(store, { text: "A short text to read.", voice: "en-GB-male" }, { offline: offlineSynthesizer });
    await encodeStored(store, result.key, "wav");
    const wav = await object(result.key, "wav");
    const [row] = await store.findAudio([result.key]);
    expect(row.wavBytes).toBe(wav.byteLength);
    const manifests = (await readC2pa(wav, "wav", testCa())) as unknown as Store;
    expect(manifests.validation_state).toBe("Trusted");
    const active = manifests.manifests[manifests.active_manifest];
    expect(active.assertions.find((a) => a.label === "org.narration-platform.narration")!.data).toMatchObject({ synthetic_voice: true, voice: "en-GB-male" });
    const probe = await probeAudio(wav, "wav");
    expect(probe.duration).toBeCloseTo(result.duration_seconds, 1);

    // Tampering: one sample changed in the audio, and the data hash no longer matches.
    const tampered = wav.slice();
    tampered[tampered.length - 2] ^= 0xff;
    const broken = (await readC2pa(tampered, "wav", testCa())) as unknown as Store;
    expect(broken.validation_state).toBe("Invalid");
  });

  it("an MP3 over 16 MB is signed, its frames hashed piece by piece, and a changed byte in its middle breaks the manifest", async () => {
    useC2pa(testVars);
    const result = await renderText(
      store,
      { text: "A long narration, as far as the manifest can tell.", voice: "en-US-male" },
      { offline: offlineSynthesizer },
    );
    const small = await object(result.key, "mp3");
    const frames = small.subarray(tagLength(small));
    // The same frames again and again, as parts (no copy made), to past the size c2pa-rs could sign in its own memory.
    const parts = Array.from({ length: Math.ceil((MAX_SIGNED_BYTES + (1 << 20)) / frames.length) }, () => frames);
    const about = { provider: "offline", voice: "en-US-male", title: "Long" };
    const tag = (await signedMp3Tag(parts, about))!;
    const mp3 = concatBytes([tag, ...parts]);
    expect(mp3.byteLength).toBeGreaterThan(MAX_SIGNED_BYTES);

    const manifests = (await readC2pa(mp3, "mp3", testCa())) as unknown as Store;
    expect(manifests.validation_state).toBe("Trusted");
    expect(manifests.validation_results.activeManifest.failure).toEqual([]);
    expect(manifests.manifests[manifests.active_manifest].title).toBe("Long");

    const tampered = mp3;
    tampered[Math.floor(tampered.length / 2)] ^= 0x01;
    const broken = (await readC2pa(tampered, "mp3", testCa())) as unknown as Store;
    expect(broken.validation_state).toBe("Invalid");
    expect(broken.validation_results.activeManifest.failure.map((f) => f.code)).toContain("assertion.dataHash.mismatch");
  });

  it("renders of one isolate sign at once: each manifest validates; c2pa-rs's instance is kept for the next, unless a large file grew its memory", async () => {
    useC2pa(testVars);
    const result = await renderText(store, { text: "Two renders finish together.", voice: "en-US-male" }, { offline: offlineSynthesizer });
    const small = await object(result.key, "mp3");
    const frames = small.subarray(tagLength(small));
    const about = (title: string) => ({ provider: "offline", voice: "en-US-male", title });
    const [first, second] = await Promise.all([signedMp3Tag([frames], about("First")), signedMp3Tag([frames], about("Second"))]);
    // Kept: starting an instance costs three signings.
    expect(memoryBytes()).toBeGreaterThan(0);
    for (const [tag, title] of [
      [first!, "First"],
      [second!, "Second"],
    ] as const) {
      const manifests = (await readC2pa(concatBytes([tag, frames]), "mp3", testCa())) as unknown as Store;
      expect(manifests.validation_state).toBe("Trusted");
      expect(manifests.manifests[manifests.active_manifest].title).toBe(title);
    }

    // A file read whole grows its memory: dropped once the read is done.
    const large = Array.from({ length: Math.ceil((MAX_SIGNED_BYTES + (1 << 20)) / frames.length) }, () => frames);
    const largeMp3 = concatBytes([(await signedMp3Tag(large, about("Large")))!, ...large]);
    expect(((await readC2pa(largeMp3, "mp3", testCa())) as unknown as Store).validation_state).toBe("Trusted");
    expect(memoryBytes()).toBe(0);
  });

  it("the Opus has its manifest beside it: signed, naming the narration, bound to every byte of the Opus by its SHA-256", async () => {
    const result = await signedArticle("en-GB-male");
    const opus = await object(result.key, "opus");
    const sidecar = new Uint8Array(await (await env.AUDIO.get(c2paSidecarPath(result.key)))!.arrayBuffer());

    // c2pa-rs's Reader reads the manifest store alone (its WebAssembly build has no reader of a manifest with its
    // asset): it validates the signature, the trust in its CA and every assertion, and checks the data hash
    // against the bytes it was given, the .c2pa itself, which cannot match. That one failure is all there is.
    const manifests = (await readC2pa(sidecar, "opus", testCa())) as unknown as Store;
    const results = manifests.validation_results.activeManifest;
    expect(results.failure.map((f) => f.code)).toEqual(["assertion.dataHash.mismatch"]);
    expect(results.success.map((f) => f.code)).toEqual(expect.arrayContaining(["claimSignature.validated", "signingCredential.trusted"]));
    const active = manifests.manifests[manifests.active_manifest];
    expect(active.title).toBe(ARTICLE.title);
    expect(active.assertions.find((a) => a.label === "org.narration-platform.narration")!.data).toMatchObject({
      synthetic_voice: true,
      voice: "en-GB-male",
      article_url: URL_OF_ARTICLE,
    });
    // The data hash it signed is the SHA-256 of the whole Opus, with no exclusions: what `c2patool narration.opus
    // --external-manifest narration.c2pa` checks (docs/narration.md "Marked as synthetic").
    expect(manifests.data_hash).toEqual({ hash: await base64Sha256(opus), exclusions: [] });

    // Tampering: one byte of the Opus changed, and its hash is no longer the one signed.
    const tampered = opus.slice();
    tampered[Math.floor(tampered.length / 2)] ^= 0x01;
    expect(await base64Sha256(tampered)).not.toBe(manifests.data_hash!.hash);
  });

  it("without credentials nothing is signed", async () => {
    useC2pa({});
    const result = await renderText(store, { text: "Unsigned text, no manifest.", voice: "en-US-male" }, { offline: offlineSynthesizer });
    await expect(readC2pa(await object(result.key, "mp3"), "mp3")).rejects.toThrow();
    expect(await env.AUDIO.head(c2paSidecarPath(result.key))).toBeNull();
  });
});
