import type { VoiceOffer } from "../../kernel/voice-catalogue";
import type { SynthResult } from "./result";

/** One provider behind one interface: text (within its limit) in, mono PCM out, failures as values. */
export interface Synthesizer {
  synthesize(text: string, offer: VoiceOffer): Promise<SynthResult>;
}
