// libopus (BSD) as built to WebAssembly by @evan/opus (MIT). The package's own JavaScript loads its
// .wasm with fs.readFileSync, which workerd lacks, so this binds the same .wasm, imported as a
// compiled module, to its exported C functions.
import opusWasm from "@evan/opus/wasm/simd.wasm";

export interface LibOpus {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  opus_encoder_get_size(channels: number): number;
  opus_encoder_init(state: number, rate: number, channels: number, application: number): number;
  opus_encoder_ctl_set(state: number, request: number, value: number): number;
  opus_encoder_ctl_get(state: number, request: number): number;
  opus_encode(state: number, pcm: number, frame: number, out: number, max: number): number;
  opus_decoder_get_size(channels: number): number;
  opus_decoder_init(state: number, rate: number, channels: number): number;
  opus_decode(state: number, data: number, length: number, pcm: number, frame: number, fec: number): number;
}

export const OPUS_APPLICATION_AUDIO = 2049;
export const OPUS_SET_BITRATE = 4002;
export const OPUS_SET_COMPLEXITY = 4010;
export const OPUS_SET_SIGNAL = 4024;
export const OPUS_SIGNAL_MUSIC = 3002;
export const OPUS_GET_LOOKAHEAD = 4027;

let instance: LibOpus | undefined;

export async function libopus(): Promise<LibOpus> {
  if (instance) return instance;
  const wasm = await WebAssembly.instantiate(opusWasm, {
    wasi_snapshot_preview1: {
      fd_seek: () => 0,
      fd_write: () => 0,
      fd_close: () => 0,
      proc_exit: (code: number) => {
        throw new Error(`opus exited with ${code}`);
      },
    },
    env: { emscripten_notify_memory_growth: () => {} }, // views are re-created after each allocation
  });
  const exports = wasm.exports as unknown as LibOpus;
  exports._initialize(); // WASI reactor: run the static constructors once
  return (instance = exports);
}

/** libopus returns negative error codes. */
export function check(code: number, what: string): number {
  if (code < 0) throw new Error(`opus ${what} failed: ${code}`);
  return code;
}
