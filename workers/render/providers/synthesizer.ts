import type { LexiconEntry } from "../../kernel/lexicon";
import type { ProviderId, VoiceOffer } from "../../kernel/voice-catalogue";
import type { SynthResult } from "./result";

/**
 * One provider behind one interface: text (within its limit) in, mono PCM out, failures as values.
 * `lexicon` is the pronunciation entries that apply to the render (kernel/lexicon.ts entriesFor), which
 * the adapter hands its engine in the engine's own language.
 */
export interface Synthesizer {
  synthesize(text: string, offer: VoiceOffer, lexicon?: readonly LexiconEntry[]): Promise<SynthResult>;
  /** The voices its server has, for a provider whose voices are the server's (self-hosted). */
  voices?(): Promise<VoiceListing>;
}

/**
 * The voices a provider's server says it has, by their native names; `all` when it cannot say (every
 * catalogue voice of the provider is assumed); or why it could not be asked.
 */
export type VoiceListing = { names: string[] } | { all: true } | { error: string };

/** The configured providers of this isolate; a provider missing here is unavailable. */
export type Synthesizers = Partial<Record<ProviderId, Synthesizer>>;
