// Ogg Opus (RFC 7845) from mono PCM with libopus (BSD) from @evan/opus (MIT). The package's own
// JavaScript loads its .wasm with fs.readFileSync, which workerd lacks, so this binds the same .wasm,
// imported as a compiled module, to its exported C functions.
import opusWasm from "@evan/opus/wasm/simd.wasm";
import { BEGIN_OF_STREAM, END_OF_STREAM, oggPage, segmentsFor } from "./ogg";
import { concatBytes, type Pcm } from "./pcm";
import { resample } from "./resample";

/** Opus decoders run at 48 kHz and granule positions count 48 kHz samples (RFC 7845 §4). */
const RATE = 48_000;
/** 20 ms frames. */
const FRAME = 960;
/** Transparent-sounding for mono speech. */
const BITRATE = 32_000;
/** 5 of 10: about 3x faster than 10 in workerd for about 2 % more bytes, inaudible on speech. */
const COMPLEXITY = 5;
const MAX_PACKET = 4000;
const OPUS_APPLICATION_AUDIO = 2049;
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_COMPLEXITY = 4010;
const OPUS_SET_SIGNAL = 4024;
const OPUS_SIGNAL_VOICE = 3001;
const OPUS_GET_LOOKAHEAD = 4027;
/** About one second of packets per page. */
const PACKETS_PER_PAGE = 50;

interface OpusExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  opus_encoder_get_size(channels: number): number;
  opus_encoder_init(state: number, rate: number, channels: number, application: number): number;
  opus_encoder_ctl_set(state: number, request: number, value: number): number;
  opus_encoder_ctl_get(state: number, request: number): number;
  opus_encode(state: number, pcm: number, frame: number, out: number, max: number): number;
}

let instance: OpusExports | undefined;

async function opus(): Promise<OpusExports> {
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
  const exports = wasm.exports as unknown as OpusExports;
  exports._initialize(); // WASI reactor: run the static constructors once
  return (instance = exports);
}

function check(code: number, what: string): number {
  if (code < 0) throw new Error(`opus ${what} failed: ${code}`);
  return code;
}

/**
 * Encodes mono PCM as Ogg Opus. `serial` is the Ogg stream serial number; passing one derived from
 * the content makes the output deterministic.
 */
export async function encodeOggOpus(pcm: Pcm, serial: number): Promise<Uint8Array> {
  const x = resample(pcm, RATE).samples;
  const w = await opus();
  const state = w.malloc(w.opus_encoder_get_size(1));
  const inPtr = w.malloc(FRAME * 2);
  const outPtr = w.malloc(MAX_PACKET);
  try {
    check(w.opus_encoder_init(state, RATE, 1, OPUS_APPLICATION_AUDIO), "init");
    check(w.opus_encoder_ctl_set(state, OPUS_SET_BITRATE, BITRATE), "bitrate");
    check(w.opus_encoder_ctl_set(state, OPUS_SET_COMPLEXITY, COMPLEXITY), "complexity");
    check(w.opus_encoder_ctl_set(state, OPUS_SET_SIGNAL, OPUS_SIGNAL_VOICE), "signal");
    const preSkip = check(w.opus_encoder_ctl_get(state, OPUS_GET_LOOKAHEAD), "lookahead");

    const pages = [
      oggPage([opusHead(preSkip, pcm.sampleRate)], 0n, serial, 0, BEGIN_OF_STREAM),
      oggPage([opusTags("narration-render")], 0n, serial, 1, 0),
    ];
    // pre-skip samples of padding flush the encoder's look-ahead; the last granule position
    // (pre-skip + real length) tells decoders to drop the padding again (RFC 7845 §4.4).
    const frames = Math.ceil((x.length + preSkip) / FRAME);
    const endGranule = BigInt(preSkip + x.length);
    let batch: Uint8Array[] = [];
    let segments = 0;
    let sequence = 2;
    for (let f = 0; f < frames; f++) {
      const heap = new Int16Array(w.memory.buffer, inPtr, FRAME); // fresh view: memory may have grown
      for (let i = 0; i < FRAME; i++) {
        const s = x[f * FRAME + i] ?? 0;
        heap[i] = s <= -1 ? -32768 : s >= 1 ? 32767 : Math.round(s * 32767);
      }
      const n = check(w.opus_encode(state, inPtr, FRAME, outPtr, MAX_PACKET), "encode");
      const packet = new Uint8Array(w.memory.buffer, outPtr, n).slice();
      if (segments + segmentsFor(n) > 255 || batch.length >= PACKETS_PER_PAGE) {
        pages.push(oggPage(batch, BigInt(f * FRAME), serial, sequence++, 0));
        batch = [];
        segments = 0;
      }
      batch.push(packet);
      segments += segmentsFor(n);
    }
    const last = BigInt(frames * FRAME);
    pages.push(oggPage(batch, last < endGranule ? last : endGranule, serial, sequence, END_OF_STREAM));
    return concatBytes(pages);
  } finally {
    w.free(state);
    w.free(inPtr);
    w.free(outPtr);
  }
}

/** Identification header (RFC 7845 §5.1): one channel, mapping family 0. */
function opusHead(preSkip: number, inputRate: number): Uint8Array {
  const b = new Uint8Array(19);
  const view = new DataView(b.buffer);
  b.set(new TextEncoder().encode("OpusHead"));
  b[8] = 1; // version
  b[9] = 1; // channels
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRate, true); // informational
  view.setInt16(16, 0, true); // output gain
  b[18] = 0; // mapping family
  return b;
}

/** Comment header (RFC 7845 §5.2): a vendor string and no user comments. */
function opusTags(vendor: string): Uint8Array {
  const vendorBytes = new TextEncoder().encode(vendor);
  const b = new Uint8Array(8 + 4 + vendorBytes.length + 4);
  const view = new DataView(b.buffer);
  b.set(new TextEncoder().encode("OpusTags"));
  view.setUint32(8, vendorBytes.length, true);
  b.set(vendorBytes, 12);
  view.setUint32(12 + vendorBytes.length, 0, true);
  return b;
}
