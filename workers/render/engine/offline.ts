// eSpeak NG (GPL-3.0-or-later) compiled by Emscripten, from the npm package text2wav; see
// scripts/vendor-engine.mjs. Workers cannot compile WebAssembly from bytes, so the .wasm is imported
// as a module and handed to the glue through `instantiateWasm`. The glue is a command-line program
// with global state: each call makes a fresh instance (instantiating the compiled module takes about
// a millisecond), writes the voice data into its in-memory file system, runs main() with
// `-w /out.wav` and reads the WAVE file back.
import espeakData from "./vendor/espeak-en.bin";
import runEspeak from "./vendor/espeak-ng.cjs";
import espeakWasm from "./vendor/espeak-ng.wasm";
import type { Synthesizer } from "../providers/synthesizer";
import { fail } from "../providers/result";
import type { Pcm } from "./pcm";
import { decodeWav } from "./wav";

/** Speaking rate in words per minute (eSpeak's default is 175; a little slower reads better at length). */
const WORDS_PER_MINUTE = 165;

interface DataFile {
  path: string;
  bytes: Uint8Array;
}

let dataFiles: DataFile[] | undefined;

/** Unpacks espeak-en.bin once per isolate (format in scripts/vendor-engine.mjs). */
function voiceData(): DataFile[] {
  if (dataFiles) return dataFiles;
  const buf = new Uint8Array(espeakData);
  const indexLength = new DataView(buf.buffer, buf.byteOffset).getUint32(0, true);
  const index: { path: string; size: number }[] = JSON.parse(new TextDecoder().decode(buf.subarray(4, 4 + indexLength)));
  let offset = 4 + indexLength;
  dataFiles = index.map(({ path, size }) => ({ path, bytes: buf.subarray(offset, (offset += size)) }));
  return dataFiles;
}

/** Runs eSpeak NG once: `voice` is an eSpeak voice name with an optional variant ("en-us+f3"). */
export function espeak(text: string, voice: string): Promise<Pcm> {
  // Text goes through a file, so any text is safe (a leading "-", quotes, newlines). No -q: besides
  // silencing playback it also stops the WAVE output.
  const args = ["-v", voice, "-s", String(WORDS_PER_MINUTE), "-w", "/out.wav", "-f", "/in.txt"];
  return new Promise<Pcm>((resolve, reject) => {
    let lastError = "";
    const module = {
      arguments: args,
      print: () => {},
      printErr: (line: string) => {
        lastError = line;
      },
      instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
        WebAssembly.instantiate(espeakWasm, imports).then((instance) => receive(instance, espeakWasm), reject);
        return {}; // tells the glue that instantiation is under way
      },
      preRun: [
        () => {
          const fs = (module as unknown as { FS: EmscriptenFs }).FS;
          for (const { path, bytes } of voiceData()) {
            const full = `/usr/share/espeak-ng-data/${path}`;
            fs.mkdirTree(full.slice(0, full.lastIndexOf("/")));
            fs.writeFile(full, bytes);
          }
          fs.writeFile("/in.txt", new TextEncoder().encode(text));
        },
      ],
      postRun: [
        () => {
          try {
            resolve(decodeWav((module as unknown as { FS: EmscriptenFs }).FS.readFile("/out.wav")));
          } catch (err) {
            reject(new Error(`espeak-ng produced no audio (${lastError}): ${err}`));
          }
        },
      ],
      onAbort: (what: unknown) => reject(new Error(`espeak-ng aborted: ${what}`)),
    };
    runEspeak(module);
  });
}

interface EmscriptenFs {
  mkdirTree(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
  readFile(path: string): Uint8Array;
}

/** The offline provider: eSpeak NG inside the Worker, no key, no network. */
export const offlineSynthesizer: Synthesizer = {
  async synthesize(text, offer) {
    try {
      return { ok: true, pcm: await espeak(text, offer.native) };
    } catch (err) {
      return fail("bad_audio", err instanceof Error ? err.message : String(err));
    }
  },
};
