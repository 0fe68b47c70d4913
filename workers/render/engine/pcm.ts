/** Mono PCM as engines and providers produce it and the encoders consume it. */
export interface Pcm {
  /** Mono samples, nominal range [-1, 1]. */
  samples: Float32Array;
  /** Hz. */
  sampleRate: number;
}

/**
 * Mono 16-bit PCM, sample v standing for v / 32768: how pieces and the master are held from the
 * master rate on, at 2 bytes a sample rather than Float32's 4 (see README, memory and long articles).
 */
export interface Pcm16 {
  samples: Int16Array;
  /** Hz. */
  sampleRate: number;
}

/** Exact duration in seconds. */
export function pcmDuration(pcm: Pcm | Pcm16): number {
  return pcm.samples.length / pcm.sampleRate;
}

/** Mono 16-bit little-endian PCM to float samples. */
export function fromInt16Le(bytes: Uint8Array, sampleRate: number): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(2 * i, true) / 32768;
  return { samples, sampleRate };
}

/**
 * The bytes of `samples` as 16-bit little-endian PCM, without a copy: typed arrays use the CPU's
 * byte order, and workerd runs only on little-endian CPUs (x86-64, arm64).
 */
export function int16LeBytes(samples: Int16Array): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
}

export function floatToInt16(x: number): number {
  const c = x < -1 ? -1 : x > 1 ? 1 : x;
  return c < 0 ? Math.round(c * 32768) : Math.round(c * 32767);
}

/** Concatenates byte arrays. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
