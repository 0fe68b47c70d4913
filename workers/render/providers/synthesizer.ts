import type { ProviderId, VoiceOffer } from "../../kernel/voice-catalogue";
import type { SynthResult } from "./result";

/** One provider behind one interface: text (within its limit) in, mono PCM out, failures as values. */
export interface Synthesizer {
  synthesize(text: string, offer: VoiceOffer): Promise<SynthResult>;
}

/** The configured providers of this isolate; a provider missing here is unavailable. */
export type Synthesizers = Partial<Record<ProviderId, Synthesizer>>;
