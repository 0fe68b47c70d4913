// Opus packets whose decoding stays under the podcast true-peak norm.
//
// Lossy coding overshoots: at 32 kbit/s libopus decodes up to about 2 dB above the master's true
// peak at some onsets (CELT), and up to 7 dB at plosives after a closure (SILK), so a master limited
// to -2 dBTP decoded above -1 dBTP. No encoder option bounds its own overshoot, so each frame
// is decoded right after it is encoded, as a player would; where the decoded signal passes the
// ceiling, the encoder and decoder are put back to their state before the frame (each is one flat
// block of WASM memory, so a copy is a snapshot), a short smooth dip in gain is laid into the input
// around the overshoot, and the frame is encoded again. The encoder looks ahead, so an overshoot
// early in a frame's output comes from the end of the frame before, and encoding that frame again
// can move an overshoot into the one before it; packets are therefore held back a few frames, and
// a dip that reaches back has every frame from there on encoded again.
import {
  check,
  libopus,
  OPUS_APPLICATION_AUDIO,
  OPUS_GET_LOOKAHEAD,
  OPUS_SET_BITRATE,
  OPUS_SET_COMPLEXITY,
  OPUS_SET_SIGNAL,
  OPUS_SIGNAL_MUSIC,
  type LibOpus,
} from "./libopus";

/** Input rates libopus encodes natively, so the master needs no resampling. */
const OPUS_RATES = [8_000, 12_000, 16_000, 24_000, 48_000];
const FRAME_MS = 20;
/** Samples in one of the encoder's frames at `sampleRate`. */
export const opusFrameSamples = (sampleRate: number) => (sampleRate * FRAME_MS) / 1000;
/** Transparent-sounding for mono speech. */
const BITRATE = 32_000;
/** 5 of 10: about 3x faster than 10 in workerd for about 2 % more bytes, inaudible on speech. */
const COMPLEXITY = 5;
/**
 * CELT alone (the music signal hint at this bitrate): SILK's overshoots at plosives would need dips
 * of up to 7 dB, which are audible; CELT's need 2 dB at most, for the same size of file.
 */
const SIGNAL = OPUS_SIGNAL_MUSIC;
const MAX_PACKET = 4000;
/** Players decode Opus at 48 kHz, so overshoots are looked for there. */
const DECODE_RATE = 48_000;
/** Decoded sample peaks above -1.5 dBFS count as overshoots: 0.5 dB below the norm for inter-sample peaks. */
const CEILING = 32768 * 10 ** (-1.5 / 20);
/** Where a dip brings an overshoot back to. */
const TARGET = 32768 * 10 ** (-2 / 20);
/** The deepest a dip goes: deeper ones chase codec noise on sustained loud vowels and sound like dropouts. */
const FLOOR = 10 ** (-3 / 20);
/** A dip holds its depth this long either side of the overshoot, then returns to unity over RAMP_MS. */
const HOLD_MS = 1;
const RAMP_MS = 5;
/** Encodings of one frame at most (for one state of the frames before it); a dip usually takes one more. */
const MAX_TRIES = 4;
/** Frames whose packets are held back, open to encoding again. */
const DEPTH = 3;

/**
 * Encodes mono 16-bit frames of `FRAME_MS` one by one. Each call returns the packet that has become
 * final, DEPTH frames back (none for the first frames); `finish` returns the rest.
 */
export class OpusFrameEncoder {
  /** Samples of one frame at the input rate. */
  readonly frame: number;
  /** Encoder delay in input samples: the decoded stream starts this much early (Ogg pre-skip). */
  readonly lookahead: number;
  private readonly w: LibOpus;
  /** Encoder state, then decoder state, in one block so one copy saves both. */
  private readonly state: number;
  private readonly decoder: number;
  private readonly stateBytes: number;
  /** Frames held open and the one being encoded: the rings below have a slot for each. */
  private readonly slots = DEPTH + 1;
  /** The state before each open frame, by slot. */
  private readonly snapshots: number[];
  private readonly packets: (Uint8Array | undefined)[];
  /** Input samples of the open frames and the gain each is encoded with, by absolute position modulo their length. */
  private readonly input: Int16Array;
  private readonly gain: Float32Array;
  private readonly inPtr: number;
  private readonly outPtr: number;
  private readonly decodedPtr: number;
  /** Decoded samples per input sample. */
  private readonly upsampling: number;
  private readonly hold: number;
  private readonly ramp: number;
  /** Index of the frame being encoded. */
  private current = 0;

  private constructor(w: LibOpus, sampleRate: number) {
    if (!OPUS_RATES.includes(sampleRate)) throw new Error(`opus cannot encode at ${sampleRate} Hz`);
    this.w = w;
    this.frame = opusFrameSamples(sampleRate);
    this.upsampling = DECODE_RATE / sampleRate;
    this.hold = Math.round((HOLD_MS / 1000) * sampleRate);
    this.ramp = Math.round((RAMP_MS / 1000) * sampleRate);
    this.input = new Int16Array(this.slots * this.frame);
    this.gain = new Float32Array(this.slots * this.frame).fill(1);
    this.packets = new Array(this.slots);
    const decoderAt = Math.ceil(w.opus_encoder_get_size(1) / 16) * 16;
    this.stateBytes = decoderAt + w.opus_decoder_get_size(1);
    this.state = w.malloc(this.stateBytes);
    this.decoder = this.state + decoderAt;
    this.snapshots = Array.from({ length: this.slots }, () => w.malloc(this.stateBytes));
    this.inPtr = w.malloc(this.frame * 2);
    this.outPtr = w.malloc(MAX_PACKET);
    this.decodedPtr = w.malloc(this.frame * this.upsampling * 2);
    try {
      const encoder = this.state;
      check(w.opus_encoder_init(encoder, sampleRate, 1, OPUS_APPLICATION_AUDIO), "encoder init");
      check(w.opus_encoder_ctl_set(encoder, OPUS_SET_BITRATE, BITRATE), "bitrate");
      check(w.opus_encoder_ctl_set(encoder, OPUS_SET_COMPLEXITY, COMPLEXITY), "complexity");
      check(w.opus_encoder_ctl_set(encoder, OPUS_SET_SIGNAL, SIGNAL), "signal");
      this.lookahead = check(w.opus_encoder_ctl_get(encoder, OPUS_GET_LOOKAHEAD), "lookahead");
      check(w.opus_decoder_init(this.decoder, DECODE_RATE, 1), "decoder init");
    } catch (err) {
      this.release();
      throw err;
    }
    // A dip around an overshoot in a frame's output must end within that frame.
    if (this.hold + this.ramp > this.lookahead) throw new Error("opus: dip wider than the look-ahead");
  }

  static async create(sampleRate: number): Promise<OpusFrameEncoder> {
    return new OpusFrameEncoder(await libopus(), sampleRate);
  }

  /** Encodes the next frame; returns the packet that is final now, if one is. */
  encode(samples: Int16Array): Uint8Array | undefined {
    const f = this.current;
    const at = (f % this.slots) * this.frame;
    this.input.set(samples, at);
    this.gain.fill(1, at, at + this.frame);
    this.save(f);
    this.packets[f % this.slots] = this.settle(f);
    this.current++;
    return f >= DEPTH ? this.packets[(f - DEPTH) % this.slots] : undefined;
  }

  /** The packets still held, in order; releases the encoder. */
  finish(): Uint8Array[] {
    this.release();
    const first = this.oldest;
    return Array.from({ length: this.current - first }, (_, k) => this.packets[(first + k) % this.slots]!);
  }

  private release(): void {
    for (const p of [this.state, ...this.snapshots, this.inPtr, this.outPtr, this.decodedPtr]) if (p) this.w.free(p);
  }

  /**
   * Encodes frame f, from the state saved before it, until its decoding stays under the ceiling.
   * When a dip reaches back into an open frame, the frames from there on are encoded again first.
   */
  private settle(f: number): Uint8Array {
    for (let tries = 1; ; tries++) {
      const packet = this.encodeFrame(f);
      const reach = tries < MAX_TRIES ? this.dipOvershoots(f) : undefined;
      if (reach === undefined) return packet;
      this.restore(reach);
      for (let k = reach; k < f; k++) {
        this.packets[k % this.slots] = this.settle(k);
        this.save(k + 1);
      }
    }
  }

  /** The oldest frame still open. */
  private get oldest(): number {
    return Math.max(0, this.current - DEPTH);
  }

  /** Encodes frame f with its gains and decodes the packet, as a player would. */
  private encodeFrame(f: number): Uint8Array {
    const { w, frame, input, gain } = this;
    const at = (f % this.slots) * frame;
    const pcm = new Int16Array(w.memory.buffer, this.inPtr, frame); // fresh views: memory may have grown
    for (let i = 0; i < frame; i++) pcm[i] = Math.round(input[at + i] * gain[at + i]);
    const n = check(w.opus_encode(this.state, this.inPtr, frame, this.outPtr, MAX_PACKET), "encode");
    check(w.opus_decode(this.decoder, this.outPtr, n, this.decodedPtr, frame * this.upsampling, 0), "decode");
    return new Uint8Array(w.memory.buffer, this.outPtr, n).slice();
  }

  /**
   * Lays a dip into the gains around each overshoot in frame f's decoded output, and returns the
   * oldest frame a dip reached, or undefined if no gain went down. Decoded sample j of frame f stands
   * for input sample f * frame - lookahead + j / upsampling; overshoots from closed frames are past
   * mending.
   */
  private dipOvershoots(f: number): number | undefined {
    const { frame, gain, hold, ramp } = this;
    const decoded = new Int16Array(this.w.memory.buffer, this.decodedPtr, frame * this.upsampling);
    const open = this.oldest * frame;
    const ring = gain.length;
    let reach: number | undefined;
    for (let j = 0; j < decoded.length; j++) {
      const peak = Math.abs(decoded[j]);
      if (peak <= CEILING) continue;
      const at = f * frame - this.lookahead + Math.floor(j / this.upsampling);
      if (at < open) continue;
      const depth = Math.max(FLOOR, (gain[at % ring] * TARGET) / peak);
      const from = Math.max(open, at - hold - ramp);
      let deeper = false;
      for (let i = from; i <= at + hold + ramp; i++) {
        const distance = Math.max(0, Math.abs(i - at) - hold);
        const g = 1 - (1 - depth) * 0.5 * (1 + Math.cos((Math.PI * distance) / ramp)); // raised cosine back to 1
        if (g < gain[i % ring] - 1e-3) {
          gain[i % ring] = g;
          deeper = true;
        }
      }
      if (deeper) reach = Math.min(reach ?? f, Math.floor(from / frame));
    }
    return reach;
  }

  /** Saves the state before frame f. */
  private save(f: number): void {
    const to = this.snapshots[f % this.slots];
    new Uint8Array(this.w.memory.buffer).copyWithin(to, this.state, this.state + this.stateBytes);
  }

  /** Puts back the state before frame f. */
  private restore(f: number): void {
    const from = this.snapshots[f % this.slots];
    new Uint8Array(this.w.memory.buffer).copyWithin(this.state, from, from + this.stateBytes);
  }
}
