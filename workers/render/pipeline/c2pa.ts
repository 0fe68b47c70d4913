// C2PA manifests in the MP3 and WAV (docs/narration.md "Marked as synthetic"): the Content Credentials standard
// (https://c2pa.org/specifications/specifications/2.2/specs/C2PA_Specification.html) says who made
// the audio and how, in the file, signed. Written by c2pa-rs (its WebAssembly build,
// @contentauth/c2pa-wasm, vendored by scripts/vendor-engine.mjs), read back in the tests by the same
// library's Reader. The manifest asserts that the audio was created by an algorithm (eSpeak NG's
// rules: IPTC "algorithmicMedia"; a neural voice: "trainedAlgorithmicMedia") reading the article, and
// names the engine, the voice, the article's title, publisher and URL.
//
// Signing: c2pa-wasm hands its signer the claim and takes back a whole COSE_Sign1 (it does no COSE
// itself), so it is built here (RFC 9052 §4.2): protected header { alg: ES256, x5chain: [signing
// certificate, its CA] } (C2PA §14.5: the chain in the protected header), detached payload, the
// ECDSA P-256 signature over Sig_structure by WebCrypto, and an unprotected "pad" that brings it to
// the size reserved for it. The key and chain come from configuration (C2PA_SIGNING_KEY,
// C2PA_CERTIFICATE_CHAIN); locally, the development pair of .dev.vars.example
// (scripts/c2pa-credentials.mjs), whose CA no one else trusts.
import c2paWasm from "../engine/vendor/c2pa.wasm";
import { initSync, memoryBytes, release, WasmBuilder, WasmReader } from "../engine/vendor/c2pa.js";
import { PROVIDERS, type ProviderId } from "../../kernel/voice-catalogue";
import { engineName, syntheticVoiceStatement } from "../../kernel/synthetic-voice";
import { mp3Tag, type AudioAbout } from "./audio-tags";
import { id3v24 } from "../engine/id3";
import { sha256Of } from "../../core/crypto";

/** A signing credential: the private key and the certificates, signing certificate first. */
export interface C2paCredentials {
  key: CryptoKey;
  chain: Uint8Array[];
}

/**
 * What C2PA signs here: the MP3 (the manifest in a GEOB frame of its ID3 tag), the WAV (in a "C2PA"
 * chunk) and the Opus (Ogg is not a format C2PA embeds in: its manifest is a file of its own beside
 * it, the ".c2pa" sidecar of C2PA 2.2 §11.3 "External manifests").
 */
export type SignedFormat = "mp3" | "wav" | "opus";
const MEDIA_TYPES: Record<SignedFormat, string> = { mp3: "audio/mpeg", wav: "audio/wav", opus: "audio/ogg" };

/**
 * Largest WAV signed. c2pa-rs embeds in a WAV itself, holding the asset and the signed copy in its
 * own memory, which the isolate gets back only when the instance is dropped; beside a render's audio
 * (docs/narration.md "Memory and long articles") 16 MB (5.5 minutes) leave room. Longer WAVs go
 * unsigned, logged. The MP3 and the Opus are hashed here, piece by piece, and signed at any size.
 */
export const MAX_SIGNED_BYTES = 16 << 20;

/** Bytes the COSE signature may take: two certificates of under 1 KB each, headers and the signature. */
const RESERVE_BYTES = 8192;

/**
 * Memory the c2pa-rs instance keeps between uses. Starting an instance took about 9 ms on this machine,
 * three times a manifest's signing (bench/results.md "Issue 44: the signer kept, the Opus beside the
 * MP3"), and a render signs three manifests; the instance starts with 3.2 MB and grows with an asset held
 * whole (a WAV signed, a file read), which goes back to the isolate.
 */
const KEPT_INSTANCE_BYTES = 8 << 20;
let instanceUsers = 0;

/**
 * Runs `work` with the c2pa-rs instance, started if none is, and drops the instance after the last
 * concurrent use when its memory is over KEPT_INSTANCE_BYTES (never while another render's signing
 * still calls into it).
 */
async function withC2paInstance<T>(work: () => Promise<T>): Promise<T> {
  initSync({ module: c2paWasm });
  instanceUsers++;
  try {
    return await work();
  } finally {
    if (--instanceUsers === 0 && memoryBytes() > KEPT_INSTANCE_BYTES) release();
  }
}

const base64 = (s: string) => Uint8Array.from(atob(s.trim()), (c) => c.charCodeAt(0));

/** The credentials in `env` (base64 DER: the PKCS#8 key; the chain, comma-separated), or null when unset. */
export async function credentialsFrom(env: { C2PA_SIGNING_KEY?: string; C2PA_CERTIFICATE_CHAIN?: string }): Promise<C2paCredentials | null> {
  if (!env.C2PA_SIGNING_KEY || !env.C2PA_CERTIFICATE_CHAIN) return null;
  const key = await crypto.subtle.importKey("pkcs8", base64(env.C2PA_SIGNING_KEY), { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  return {
    key,
    chain: env.C2PA_CERTIFICATE_CHAIN.split(",")
      .filter((c) => c.trim())
      .map(base64),
  };
}

let configured: Promise<C2paCredentials | null> = Promise.resolve(null);
let configuredFrom: object | undefined;

/** Takes the isolate's signing credentials from its `env` (once per env); renders sign with them from then on. */
export function useC2pa(env: { C2PA_SIGNING_KEY?: string; C2PA_CERTIFICATE_CHAIN?: string }): void {
  if (configuredFrom === env) return;
  configuredFrom = env;
  configured = credentialsFrom(env).catch((err: unknown) => {
    console.error(`C2PA credentials unusable, audio goes unsigned: ${err instanceof Error ? err.message : err}`);
    return null;
  });
}

/** The credentials renders sign with, null when none are configured. */
export function c2paCredentials(): Promise<C2paCredentials | null> {
  return configured;
}

/** The manifest of a narration (c2pa-rs Builder JSON). */
export function narrationManifest(about: AudioAbout, format: SignedFormat): Record<string, unknown> {
  const neural = (PROVIDERS as Partial<Record<string, { quality: string }>>)[about.provider as ProviderId]?.quality !== "formant";
  const statement = syntheticVoiceStatement(about.provider, about.voice);
  return {
    claim_generator_info: [{ name: "narration-platform", version: "0.1.0" }],
    title: about.title ?? statement,
    format: MEDIA_TYPES[format],
    assertions: [
      {
        label: "c2pa.actions.v2",
        data: {
          actions: [
            {
              action: "c2pa.created",
              // IPTC digital source types: https://cv.iptc.org/newscodes/digitalsourcetype/
              digitalSourceType: `http://cv.iptc.org/newscodes/digitalsourcetype/${neural ? "trainedAlgorithmicMedia" : "algorithmicMedia"}`,
              softwareAgent: { name: engineName(about.provider) },
              description: `${statement}, reading ${about.title ? `"${about.title}"` : "a text"}${about.publisher ? ` from ${about.publisher}` : ""}`,
              parameters: { engine: engineName(about.provider), voice: about.voice, ...(about.url ? { article: about.url } : {}) },
            },
          ],
        },
      },
      {
        label: "org.narration-platform.narration",
        data: {
          synthetic_voice: true,
          statement,
          engine: engineName(about.provider),
          voice: about.voice,
          ...(about.title ? { title: about.title } : {}),
          ...(about.publisher ? { publisher: about.publisher } : {}),
          ...(about.url ? { article_url: about.url } : {}),
        },
      },
    ],
  };
}

/**
 * The WAV `bytes` with a signed C2PA manifest in a "C2PA" chunk, or null when no credentials are
 * configured or the file is over MAX_SIGNED_BYTES.
 */
export async function signWav(bytes: Uint8Array, about: AudioAbout): Promise<Uint8Array | null> {
  const credentials = await configured;
  if (!credentials) return null;
  if (bytes.byteLength > MAX_SIGNED_BYTES) {
    console.warn(`C2PA: a WAV of ${bytes.byteLength} bytes is over ${MAX_SIGNED_BYTES}: left unsigned`);
    return null;
  }
  return withC2paInstance(async () => {
    const builder = WasmBuilder.fromJson(JSON.stringify(narrationManifest(about, "wav")));
    try {
      const source = inMemory(bytes);
      const signer = { alg: "es256", reserveSize: RESERVE_BYTES, sign: (claim: Uint8Array) => coseSign1(claim, credentials) };
      return await builder.sign(signer, [], MEDIA_TYPES.wav, source as unknown as Blob);
    } finally {
      builder.free();
    }
  });
}

/** The ID3 tag of an MP3 of `about` whose frames are `frames`, with its signed C2PA manifest; null without credentials. */
export async function signedMp3Tag(frames: Uint8Array[], about: AudioAbout): Promise<Uint8Array | null> {
  const credentials = await configured;
  if (!credentials) return null;
  const tagWith = (data: Uint8Array) =>
    mp3Tag(about, [{ id: "GEOB", mimeType: "application/c2pa", filename: "c2pa", description: "c2pa manifest store", data }]);
  // The data hash excludes the manifest's own bytes (where c2pa-rs's reader finds them: sdk/src/asset_handlers/id3_helper.rs
  // of github.com/contentauth/c2pa-rs), so their place and length are signed: the manifest is signed for a size, and
  // again when it came out another size (the CBOR integers of the exclusion grow at 24, 256 and 65536).
  // The manifest holds the signature's reserve, so it is at least that long: signed first for that
  // size, its exclusion is written as wide as it will be, and the size it comes out is final.
  let size = RESERVE_BYTES;
  for (let tries = 0; tries < 4; tries++) {
    const tag = tagWith(new Uint8Array(size));
    const start = tag.length - size;
    const hash = await sha256Of([tag.subarray(0, start), ...frames]);
    const manifest = await signedManifest(credentials, about, "mp3", { hash, exclusions: [{ start, length: size }] });
    if (manifest.length === size) {
      tag.set(manifest, start);
      return tag;
    }
    size = manifest.length;
  }
  throw new Error("C2PA: the MP3 manifest's size did not settle");
}

/**
 * The sidecar manifest of an Opus file made of `pages` (C2PA 2.2 §11.3: the manifest store alone, in a ".c2pa" file,
 * bound to the whole file by a data hash with no exclusions); null without credentials.
 */
export async function opusManifest(pages: Uint8Array[], about: AudioAbout): Promise<Uint8Array | null> {
  const credentials = await configured;
  if (!credentials) return null;
  return signedManifest(credentials, about, "opus", { hash: await sha256Of(pages), exclusions: [] });
}

/** A hard binding (C2PA 2.2 §18.5 "Data hash", c2pa.hash.data): SHA-256 of the file but the excluded byte ranges. */
interface DataHash {
  hash: Uint8Array;
  exclusions: { start: number; length: number }[];
}

/** What c2pa-rs is handed as the asset when it signs a data hash made here: it reads none of it, but the MP3 handler wants a tag to look in. */
const STUBS: Record<"mp3" | "opus", Uint8Array> = { mp3: id3v24([]), opus: new Uint8Array(0) };

/**
 * The manifest store of a narration in `format`, bound by `binding`, signed. c2pa-rs takes the data hash as given
 * (it hashes an asset only when the claim has no hash assertion) and returns the store without embedding it
 * (no_embed), so the file itself never enters its memory.
 */
async function signedManifest(credentials: C2paCredentials, about: AudioAbout, format: "mp3" | "opus", binding: DataHash): Promise<Uint8Array> {
  const definition = narrationManifest(about, format);
  definition.assertions = [
    ...(definition.assertions as unknown[]),
    { label: "c2pa.hash.data", data: { name: "jumbf manifest", alg: "sha256", hash: Array.from(binding.hash), exclusions: binding.exclusions, pad: [] } },
  ];
  return withC2paInstance(async () => {
    // Nothing to verify after signing: the asset handed over is not the file.
    const builder = WasmBuilder.fromJson(JSON.stringify(definition), JSON.stringify({ verify: { verify_after_sign: false } }));
    try {
      builder.setNoEmbed(true);
      const signer = { alg: "es256", reserveSize: RESERVE_BYTES, sign: (claim: Uint8Array) => coseSign1(claim, credentials) };
      const { manifest } = (await builder.signAndGetManifestBytes(signer, [], MEDIA_TYPES[format], inMemory(STUBS[format]) as unknown as Blob)) as {
        manifest: Uint8Array;
      };
      return Uint8Array.from(manifest);
    } finally {
      builder.free();
    }
  });
}

/**
 * The manifest store of `bytes` as c2pa-rs's Reader reads and validates it (its JSON: active_manifest,
 * manifests, validation_state, validation_results), trusting the CA certificates of `trustAnchors`
 * (PEM) besides none; no network (no OCSP, no remote manifest). `data_hash` adds the active manifest's
 * c2pa.hash.data, which the JSON leaves out. For "opus", `bytes` is the sidecar: the WebAssembly
 * build reads a manifest store alone (its Reader has no from_manifest_data_and_stream), so it checks
 * the signature and the assertions, and the data hash against the sidecar's own bytes, which cannot
 * match; `data_hash` is what to compare with the Opus's SHA-256.
 */
export async function readC2pa(bytes: Uint8Array, format: SignedFormat, trustAnchors?: string): Promise<Record<string, unknown>> {
  return withC2paInstance(async () => {
    const context = { verify: { ocsp_fetch: false, remote_manifest_fetch: false }, ...(trustAnchors ? { trust: { trust_anchors: trustAnchors } } : {}) };
    const reader = await WasmReader.fromBytes(format === "opus" ? "application/c2pa" : MEDIA_TYPES[format], bytes, JSON.stringify(context));
    try {
      const store = JSON.parse(reader.json());
      const cr = JSON.parse(reader.crJson()) as { manifests: { label: string; assertions: Record<string, { hash?: string; exclusions?: unknown }> }[] };
      const binding = cr.manifests.find((m) => m.label === store.active_manifest)?.assertions["c2pa.hash.data"];
      return { ...store, data_hash: binding ? { hash: binding.hash?.replace(/^b64'|'$/g, ""), exclusions: binding.exclusions } : null };
    } finally {
      reader.free();
    }
  });
}

/** The asset as the vendored glue reads it (scripts/vendor-engine.mjs): a size, slices and their bytes. */
function inMemory(bytes: Uint8Array): { size: number; bytes: Uint8Array; slice(start?: number, end?: number): unknown } {
  return { size: bytes.byteLength, bytes, slice: (start = 0, end = bytes.byteLength) => inMemory(bytes.subarray(start, end)) };
}

// CBOR (RFC 8949), as much as COSE needs: integers, byte and text strings, arrays, maps, tags, null.
class Tagged {
  constructor(
    readonly tag: number,
    readonly value: Cbor,
  ) {}
}
type Cbor = number | string | Uint8Array | null | Cbor[] | Map<Cbor, Cbor> | Tagged;

function cbor(value: Cbor): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  const head = (major: number, n: number) => {
    if (n < 24) out.push((major << 5) | n);
    else if (n < 0x100) out.push((major << 5) | 24, n);
    else if (n < 0x10000) out.push((major << 5) | 25, n >> 8, n & 0xff);
    else out.push((major << 5) | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  };
  const bytes = (b: Uint8Array) => {
    for (const x of b) out.push(x);
  };
  const write = (v: Cbor) => {
    if (v === null) out.push(0xf6);
    else if (typeof v === "number") head(v >= 0 ? 0 : 1, v >= 0 ? v : -1 - v);
    else if (typeof v === "string") {
      const b = new TextEncoder().encode(v);
      head(3, b.length);
      bytes(b);
    } else if (v instanceof Uint8Array) {
      head(2, v.length);
      bytes(v);
    } else if (Array.isArray(v)) {
      head(4, v.length);
      for (const x of v) write(x);
    } else if (v instanceof Map) {
      head(5, v.size);
      for (const [k, x] of v) {
        write(k);
        write(x);
      }
    } else {
      head(6, v.tag);
      write(v.value);
    }
  };
  write(value);
  return Uint8Array.from(out);
}

/** COSE header labels and values (RFC 9052 §3.1, RFC 9360 §2) and the COSE_Sign1 tag (RFC 9052 §4.2). */
const COSE = { alg: 1, x5chain: 33, es256: -7, sign1Tag: 18 } as const;

/** A COSE_Sign1 over `claim` (detached), padded to exactly RESERVE_BYTES as c2pa-rs expects of a signer that builds its own COSE. */
async function coseSign1(claim: Uint8Array, { key, chain }: C2paCredentials): Promise<Uint8Array<ArrayBuffer>> {
  const protectedHeader = cbor(
    new Map<Cbor, Cbor>([
      [COSE.alg, COSE.es256],
      [COSE.x5chain, chain],
    ]),
  );
  const toBeSigned = cbor(["Signature1", protectedHeader, new Uint8Array(0), claim]);
  // WebCrypto's ECDSA signature is r || s, the form COSE uses (RFC 9053 §2.1).
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, toBeSigned));
  const build = (pad: number) => cbor(new Tagged(COSE.sign1Tag, [protectedHeader, new Map<Cbor, Cbor>([["pad", new Uint8Array(pad)]]), null, signature]));
  // The pad's own length prefix grows with it: step to the size exactly.
  let pad = Math.max(0, RESERVE_BYTES - build(0).length);
  let cose = build(pad);
  while (cose.length > RESERVE_BYTES && pad > 0) cose = build(--pad);
  while (cose.length < RESERVE_BYTES) cose = build(++pad);
  if (cose.length !== RESERVE_BYTES) throw new Error(`COSE signature of ${cose.length} bytes, ${RESERVE_BYTES} reserved`);
  return cose;
}
