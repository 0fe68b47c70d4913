// eSpeak NG (GPL-3.0-or-later) compiled by Emscripten, from the npm package text2wav; see
// scripts/vendor-engine.mjs. Workers cannot compile WebAssembly from bytes, so the .wasm is imported
// as a module and handed to the glue through `instantiateWasm`. The glue is a command-line program
// with global state: each call makes a fresh instance (instantiating the compiled module takes about
// a millisecond, in the last run's memory zeroed: withEngineMemory), writes the voice data into its
// in-memory file system and runs main() with `-w /out.wav`. Its synthesis callback is taken over
// (scripts/vendor-engine.mjs, espeak-hook): the samples and the engine's own word events (each word's
// position in the text and the sample at which eSpeak starts it) are read from it as they are made,
// and no WAVE file is written or read back.
import espeakData from "./vendor/espeak-en.bin";
import espeakLanguageData from "./vendor/espeak-data.json";
import hook from "./vendor/espeak-hook.json";
import hookWasm from "./vendor/espeak-hook.wasm";
import runEspeak from "./vendor/espeak-ng.cjs";
import espeakWasm from "./vendor/espeak-ng.wasm";
import type { Synthesizer } from "../providers/synthesizer";
import { fail } from "../providers/result";
import type { LexiconEntry } from "../../kernel/lexicon";
import type { TimedSynthResult, WordMark } from "../pipeline/word-timings";
import type { Pcm } from "./pcm";
import { spokenText } from "./spoken-text";

/** Speaking rate in words per minute (eSpeak's default is 175; a little slower reads better at length). */
const WORDS_PER_MINUTE = 165;

export interface DataFile {
  path: string;
  bytes: Uint8Array;
}

let dataFiles: DataFile[] | undefined;

/** The files of a .bin of scripts/vendor-engine.mjs: [u32 LE index length][JSON index][bytes]. */
function unpack(data: ArrayBuffer): DataFile[] {
  const buf = new Uint8Array(data);
  const indexLength = new DataView(buf.buffer, buf.byteOffset).getUint32(0, true);
  const index: { path: string; size: number }[] = JSON.parse(new TextDecoder().decode(buf.subarray(4, 4 + indexLength)));
  let offset = 4 + indexLength;
  return index.map(({ path, size }) => ({ path, bytes: buf.subarray(offset, (offset += size)) }));
}

/** Unpacks espeak-en.bin (bundled: English and the phoneme tables every language shares) once per isolate. */
function voiceData(): DataFile[] {
  dataFiles ??= unpack(espeakData);
  return dataFiles;
}

/** Reads an object of the platform's R2 bucket (through the RenderStore); null when it is not there. */
export type ObjectReader = (path: string) => Promise<ArrayBuffer | null>;

/** The data of each non-English voice read so far in this isolate: a language costs its dictionary once. */
const languageFiles = new Map<string, DataFile[]>();

/** The eSpeak voice of `native` without its variant: "de" of "de+f3". */
const voiceName = (native: string) => native.split("+", 1)[0];

/** English is bundled; every other language's voice file and dictionary are read when first needed. */
const bundled = (voice: string) => voice === "en" || voice.startsWith("en-");

/**
 * The extra data `native` needs (none for English): read from R2 under espeak-data.json's prefix
 * the first time, then kept. A language read by two requests at once is read twice rather than one
 * request waiting on the other's I/O, which workerd cancels (kernel/article-by-slug.ts). Throws
 * when the data is not in R2 (npm start and npm run deploy put it there).
 */
export async function languageData(native: string, read: ObjectReader | null): Promise<DataFile[]> {
  const voice = voiceName(native);
  if (bundled(voice)) return [];
  const known = languageFiles.get(voice);
  if (known) return known;
  const path = `${espeakLanguageData.prefix}${voice}.bin`;
  const bytes = read ? await read(path) : null;
  if (!bytes) throw new Error(`no eSpeak data for ${voice} at ${path} (npm start and npm run deploy write it)`);
  const files = unpack(bytes);
  languageFiles.set(voice, files);
  return files;
}

/** eSpeak NG's data directory in the engine's file system. */
const DATA_DIR = "/usr/share/espeak-ng-data";

/** Where eSpeak NG looks for a voice variant ("f3" of "en-us+f3"): one file under voices/!v/. */
const VARIANTS = "voices/!v/";

/**
 * Writes the voice data eSpeak NG needs for `voice` (English, `extra`, and the variant the voice
 * names) into the engine's file system; returns the file system. This runs before every paragraph,
 * so it does the least it can: each directory is made once, and of the fifty-odd variants only the
 * one asked for is written. eSpeak lists the files of voices/ when it looks a voice up and reads
 * every one it finds; the others change nothing it says (checked sample by sample on four voices,
 * bench/results.md "Issue 44: what the edit and the demo waited on").
 */
function mountVoiceData(module: unknown, voice: string, extra: readonly DataFile[]): EmscriptenFs {
  const fs = (module as { FS: EmscriptenFs }).FS;
  const variant = `${VARIANTS}${voice.split("+")[1] ?? ""}`;
  const files = [...voiceData(), ...extra].filter(({ path }) => !path.startsWith(VARIANTS) || path === variant);
  for (const dir of new Set(files.map(({ path }) => path.slice(0, path.lastIndexOf("/") + 1)))) fs.mkdirTree(`${DATA_DIR}/${dir}`);
  for (const { path, bytes } of files) {
    // canOwn: the file is the unpacked bytes themselves rather than a copy made on every run; eSpeak
    // opens its data read-only, so bytes shared by every instance are never written.
    fs.writeFile(`${DATA_DIR}/${path}`, bytes, { canOwn: true });
  }
  return fs;
}

/** eSpeak NG's memory in 64 KiB pages: the glue's fixed 16 MiB (its TOTAL_MEMORY; it never grows). */
const ENGINE_PAGES = 256;

/** The memory of the last run that ended, kept for the next (withEngineMemory). */
let spareMemory: WebAssembly.Memory | undefined;

/**
 * Runs `run` with a memory for one eSpeak instance: the one the last run left, zeroed, or a new one
 * when none is free (runs at the same time, on two lanes, each have their own). A new WebAssembly
 * memory has no pages behind it, and the host faults each one in on first touch: 2.7 ms a run on
 * this machine for the 800 KB of data eSpeak reads at its start, against 0.3 ms to zero one already
 * used (bench/results.md "Issue 44: eSpeak's memory, reads in one call"). Zeroed, it is the memory a
 * new instance starts with: instantiation writes the program's data, and C expects zeros elsewhere.
 */
async function withEngineMemory<T>(run: (memory: WebAssembly.Memory) => Promise<T>): Promise<T> {
  let memory = spareMemory;
  spareMemory = undefined;
  if (memory) new Uint8Array(memory.buffer).fill(0);
  else memory = new WebAssembly.Memory({ initial: ENGINE_PAGES, maximum: ENGINE_PAGES });
  try {
    return await run(memory);
  } finally {
    spareMemory = memory;
  }
}

/** Runs eSpeak NG once: `voice` is an eSpeak voice name with an optional variant ("en-us+f3"). */
export async function espeak(text: string, voice: string): Promise<Pcm> {
  return (await espeakTimed(text, voice)).pcm;
}

// speak_lib.h: espeak_EVENT is nine 32-bit fields on wasm32 (type, unique_identifier, text_position,
// length, audio_position, sample, user_data, id); the list ends with type 0.
const EVENT_WORDS = 9;
const EVENT = { type: 0, textPosition: 2, sample: 5, id: 7 } as const;
const EVENT_TYPE = { listEnd: 0, word: 1, sampleRate: 8 } as const;

/** eSpeak NG synthesises at this rate; it says so in its first event, which is taken when it comes. */
const ESPEAK_RATE = 22_050;

/**
 * Runs eSpeak NG once and keeps its word events: for each word it speaks, the UTF-16 offset in
 * `text` where the word starts and the time (seconds into the returned audio) at which eSpeak starts
 * it. The times come from the engine's own sample count, so they hold for the samples it hands over.
 */
export function espeakTimed(text: string, voice: string, extra: readonly DataFile[] = []): Promise<{ pcm: Pcm; words: WordMark[] }> {
  // Text goes through a file, so any text is safe (a leading "-", quotes, newlines). No -q: besides
  // silencing playback it also stops the synthesis callback. -w makes the synthesis synchronous, with
  // the samples handed to the callback (which never opens the file: the callback is ours).
  const args = ["-v", voice, "-s", String(WORDS_PER_MINUTE), "-w", "/out.wav", "-f", "/in.txt"];
  // eSpeak counts text positions in characters from 1; JavaScript strings index UTF-16 code units.
  const unitOf: number[] = [];
  for (let unit = 0; unit < text.length; unit += (text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1) unitOf.push(unit);
  const events: { position: number; sample: number }[] = [];
  const chunks: Int16Array[] = [];
  let sampleRate = ESPEAK_RATE;
  // eSpeak's last call of the callback (no samples) says the synthesis ran to its end; a program that
  // stopped before (an unknown voice, missing data) never makes it.
  let ended = false;
  return withEngineMemory(
    (memory) =>
      new Promise((resolve, reject) => {
        let lastError = "";
        const module = {
          arguments: args,
          wasmMemory: memory,
          buffer: memory.buffer,
          print: () => {},
          printErr: (line: string) => {
            lastError = line;
          },
          instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
            WebAssembly.instantiate(espeakWasm, imports).then((instance) => {
              const { table, memory } = imports.env as { table: WebAssembly.Table; memory: WebAssembly.Memory };
              // speak_lib.h t_espeak_callback: `wav` points to `samples` 16-bit samples (null at the end);
              // 0 asks for more.
              const heard = (wav: number, samples: number, list: number) => {
                const heap = new Int32Array(memory.buffer);
                for (let e = list >> 2; list !== 0 && heap[e + EVENT.type] !== EVENT_TYPE.listEnd; e += EVENT_WORDS) {
                  if (heap[e + EVENT.type] === EVENT_TYPE.sampleRate) sampleRate = heap[e + EVENT.id];
                  else if (heap[e + EVENT.type] === EVENT_TYPE.word) events.push({ position: heap[e + EVENT.textPosition], sample: heap[e + EVENT.sample] });
                }
                if (wav === 0) ended = true;
                else if (samples > 0) chunks.push(new Int16Array(memory.buffer, wav, samples).slice());
                return 0;
              };
              table.set(hook.synthCallbackSlot, new WebAssembly.Instance(hookWasm, { e: { f: heard } }).exports.f);
              receive(instance, espeakWasm);
            }, reject);
            return {}; // tells the glue that instantiation is under way
          },
          preRun: [
            () => {
              const fs = mountVoiceData(module, voice, extra);
              fs.writeFile("/in.txt", new TextEncoder().encode(text));
            },
          ],
          postRun: [
            () => {
              if (!ended) {
                reject(new Error(`espeak-ng produced no audio (${lastError})`));
                return;
              }
              const pcm = { samples: int16ToFloat(chunks), sampleRate };
              const words = events.flatMap(({ position, sample }) => {
                const char = unitOf[position - 1];
                return char === undefined ? [] : [{ char, at: sample / sampleRate }];
              });
              resolve({ pcm, words });
            },
          ],
          onAbort: (what: unknown) => reject(new Error(`espeak-ng aborted: ${what}`)),
        };
        runEspeak(module);
      }),
  );
}

/** Samples handed over in chunks, as one float signal (v / 32768, as pcm.ts reads 16-bit PCM). */
function int16ToFloat(chunks: Int16Array[]): Float32Array {
  const out = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) for (let i = 0; i < chunk.length; i++) out[at++] = chunk[i] / 32768;
  return out;
}

interface EmscriptenFs {
  mkdirTree(path: string): void;
  writeFile(path: string, data: Uint8Array, options?: { canOwn: boolean }): void;
}

/**
 * What eSpeak NG says for `text`, as phoneme mnemonics (`espeak-ng -q -x`: one line per clause), with
 * the text made ready exactly as the offline provider makes it before speaking (spoken-text.ts: the
 * lexicon, numbers, Japanese readings, read with `read`). Tests measure a pronunciation entry or a
 * language's rule by it (docs/narration-api.md "Pronunciation lexicon").
 */
export async function espeakPhonemes(
  text: string,
  voice: string,
  lexicon: readonly LexiconEntry[] = [],
  extra: readonly DataFile[] = [],
  read: ObjectReader | null = null,
): Promise<string> {
  const spoken = (await spokenText(text, voice, lexicon, read)).text;
  const lines: string[] = [];
  return withEngineMemory(
    (memory) =>
      new Promise((resolve, reject) => {
        const module = {
          arguments: ["-v", voice, "-q", "-x", "-f", "/in.txt"],
          wasmMemory: memory,
          buffer: memory.buffer,
          print: (line: string) => lines.push(line),
          printErr: () => {},
          instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
            WebAssembly.instantiate(espeakWasm, imports).then((instance) => receive(instance, espeakWasm), reject);
            return {};
          },
          preRun: [
            () => {
              const fs = mountVoiceData(module, voice, extra);
              fs.writeFile("/in.txt", new TextEncoder().encode(spoken));
            },
          ],
          postRun: [() => resolve(lines.join("\n").trim())],
          onAbort: (what: unknown) => reject(new Error(`espeak-ng aborted: ${what}`)),
        };
        runEspeak(module);
      }),
  );
}

/**
 * The offline provider: eSpeak NG inside the Worker, no key, no network; it reports where each word
 * starts. English is bundled; another language's data is read with `read` when first needed.
 */
export function offlineSynthesizerWith(read: ObjectReader | null): Synthesizer {
  return {
    async synthesize(text, offer, lexicon = []): Promise<TimedSynthResult> {
      try {
        const extra = await languageData(offer.native, read);
        // The text as eSpeak is to read it (spoken-text.ts: lexicon, numbers, Japanese readings); the
        // engine's word positions are in the text it was given, so they are read back onto the piece's own text.
        const spoken = await spokenText(text, offer.native, lexicon, read);
        const { pcm, words } = await espeakTimed(spoken.text, offer.native, extra);
        return { ok: true, pcm, words: words.map((w) => ({ ...w, char: spoken.origin(w.char) })) };
      } catch (err) {
        return fail("bad_audio", err instanceof Error ? err.message : String(err));
      }
    },
  };
}

/** The offline provider with English only, for tests and tools that have no R2. */
export const offlineSynthesizer = offlineSynthesizerWith(null);
