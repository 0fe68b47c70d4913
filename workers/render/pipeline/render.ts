import { PROVIDERS, type ProviderId, type VoiceOffer } from "../../kernel/voice-catalogue";
import { markUnhealthy } from "../providers/health";
import { marksUnhealthy, type SynthFailure } from "../providers/result";
import { availability } from "../providers/availability";
import { atLeastAsGood, candidates, defaultOffers, offersOf } from "../providers/select";
import type { Synthesizer, Synthesizers } from "../providers/synthesizer";
import { MAX_NARRATED_CHARS, SEGMENT_CHARS, type RenderInput, type RenderResult, type RenderStoreRpc } from "../../kernel/render-contract";
import { cacheKey } from "./cache-key";
import { keyedParagraphs } from "../../kernel/normalize-text";
import { entriesFor, lexiconDigest } from "../../kernel/lexicon";
import { segmentParagraphs, type Passage } from "./chunk";
import { renderWriter, type Later, type Listener, type RenderWriter } from "./store";
import type { AudioAbout } from "./audio-tags";
import { voiceSegment, type ParagraphTally, type HoldsJob, type Pronounce } from "./segment";
import { ParagraphTimeline, type RenderedWord } from "./timeline";
import type { RenderPhases } from "../phases";
import type { Seat } from "./turns";

export type { Synthesizers } from "../providers/synthesizer";

/**
 * What a render is run with: `phases` adds up the time spent synthesising and encoding, a `listener`
 * hears the MP3 as each paragraph is encoded (store.ts Listener), a `seat` takes the render's
 * turns at the isolate's CPU (turns.ts), `holdsJob` says whether the render still holds its job
 * (asked before each paragraph it voices: segment.ts), and `later` takes the writes the result does
 * not wait for (store.ts renderWriter: the private master).
 */
export interface RenderOptions {
  phases?: RenderPhases;
  listener?: Listener;
  seat?: Seat;
  holdsJob?: HoldsJob;
  later?: Later;
}

/**
 * Renders text in a voice, or finds it already rendered. The cache is looked up first under every
 * offer that could answer the request at least as well as the best available one (every provider of
 * the requested voice, or of the default language and gender when none is asked for), so a second
 * render of the same text and voice calls no provider, whichever provider made the first, while
 * audio of a formant voice never stands in for a neural voice that has become available. Otherwise
 * the candidates of the selection rule (providers/select.ts) are tried in order; a provider that fails with a provider-side reason sits out a
 * cool-down. Throws "unknown_voice: ...", "too_long: ..." or "no_provider: ..." (render-contract.ts); the message
 * names providers and reasons only, since it becomes the job's visible error, and the providers'
 * own messages go to the log.
 * Stored audio, whole or by the paragraph, is looked up only under the keys of `input.tenant`
 * (cache-key.ts): a render never reuses, and so never reveals, another tenant's audio (issue 40 item 3).
 * The pronunciation lexicon of `input.publisher` (the global one without) is read from the store;
 * the entries that apply to the text for each engine are part of that engine's cache key. A text
 * not found whole is voiced paragraph by paragraph, each paragraph found under its own key reused
 * (segment.ts); the result counts the characters synthesised and the paragraphs reused. Audio found
 * whole is not heard by the listener here.
 * Concurrent renders of one text are not joined: a Worker request may not wait on another request's
 * I/O (kernel/article-by-slug.ts says what workerd does then), so each renders until one has stored its
 * audio; both write the same bytes under the same content address, and the store records it once.
 */
export async function renderText(
  store: RenderStoreRpc,
  input: RenderInput,
  synthesizers: Synthesizers,
  { phases, listener, seat, holdsJob, later }: RenderOptions = {},
): Promise<RenderResult> {
  // Paragraphs (kernel/paragraph-timings.ts) are normalised one by one and joined by a line break,
  // which normalised text never contains: the key covers the paragraph structure, since it changes
  // the pauses and the timings, and a text of one paragraph keys as it did before paragraphs.
  const paragraphs = keyedParagraphs(input.text);
  const text = paragraphs.join("\n");
  const voice = input.voice;
  const publisher = input.publisher ?? null;
  const tenant = input.tenant ?? null;
  const names: Pick<AudioAbout, "title" | "publisher" | "url"> = { title: input.title, publisher, url: input.url };
  const now = await availability(synthesizers);
  const offers = candidates(voice, (o) => now.reason(o) === null, now.offers, input.language, input.defaultVoice);
  if (!offers) throw new Error(`unknown_voice: ${voice} is not in the catalogue`);
  if (!paragraphs.some(Boolean)) throw new Error("no_provider: nothing to read aloud");
  // Before any provider is paid: a longer render would outlast a Queue consumer's wall time.
  if (text.length > MAX_NARRATED_CHARS) {
    throw new Error(`too_long: ${text.length} characters; one render narrates at most ${MAX_NARRATED_CHARS}`);
  }

  const requested = voice ?? null;
  const pronounce = await pronunciations(store, publisher);
  // With no voice asked for, the publisher's default voice is the one wanted (render-contract.ts RenderInput).
  const wanted = voice ?? (offers[0]?.id === input.defaultVoice ? input.defaultVoice : undefined);
  const answering = (wanted === undefined ? defaultOffers(now.offers, input.language) : offersOf(wanted, now.offers)).filter(
    (o) => !offers[0] || atLeastAsGood(o, offers[0]),
  );
  const cached = await findCached(store, answering, text, requested, pronounce, tenant);
  // Every paragraph of audio found whole came from the cache.
  if (cached) return { ...cached, characters_synthesized: 0, paragraphs_reused: paragraphs.filter(Boolean).length, paragraphs_encoded: 0 };

  // One segment's audio fits the isolate (render-contract.ts); the segments are voiced one at a time
  // and each is dropped once stored. Segments meet between paragraphs where they can, else between
  // sentences; the article's key covers the whole text, each paragraph's its own (segment.ts).
  const segments = segmentParagraphs(paragraphs, SEGMENT_CHARS);
  const failures: string[] = [];
  const failed = new Set<ProviderId>();
  for (const offer of offers) {
    if (failed.has(offer.provider)) continue;
    const synthesizer = synthesizers[offer.provider]!; // candidates() kept only providers with one
    const { digest } = await pronounce(offer, text);
    const key = await cacheKey(offer.provider, offer.id, text, digest, tenant);
    const fallback = failures.length > 0 || (wanted !== undefined && offer.id !== wanted);
    const stored = { key, provider: offer.provider, voice: offer.id, requestedVoice: requested, fallback, lexiconDigest: digest };
    const writer = await renderWriter(store, stored, segments.length, { phases, names, listener, later });
    const tally: ParagraphTally = { charactersSynthesized: 0, paragraphsReused: 0, paragraphsEncoded: 0, markIds: new Set() };
    const result = await voiceSegments(store, segments, paragraphs.length, offer, tenant, synthesizer, (t) => pronounce(offer, t), tally, writer, {
      phases,
      seat,
      holdsJob,
      later,
    }).catch((err: unknown) => {
      writer.discard();
      throw err;
    });
    if (result.ok) {
      const stored = await writer.finish(result.paragraphStarts, result.words, [...tally.markIds]);
      return {
        key,
        provider: stored.provider,
        voice: stored.voice,
        quality: offer.quality,
        requested_voice: requested,
        fallback,
        cached: false,
        duration_seconds: stored.durationSeconds,
        characters_synthesized: tally.charactersSynthesized,
        paragraphs_reused: tally.paragraphsReused,
        paragraphs_encoded: tally.paragraphsEncoded,
      };
    }
    writer.discard();
    failed.add(offer.provider);
    if (marksUnhealthy(result.reason)) markUnhealthy(offer.provider);
    failures.push(`${offer.provider}/${offer.id}: ${result.reason}`);
    console.warn(`render: ${offer.provider} failed for ${offer.id}: ${result.reason} (${result.detail})`);
  }
  throw new Error(`no_provider: ${failures.length ? failures.join("; ") : "no configured provider offers this voice"}`);
}

/**
 * Voices every segment with one provider and voice, so one article never mixes voices, paragraph by
 * paragraph (segment.ts: a paragraph already stored is reused), and records where each of the
 * `paragraphs` paragraphs starts (samples from the start of the master).
 */
async function voiceSegments(
  store: RenderStoreRpc,
  segments: Passage[][],
  paragraphs: number,
  offer: VoiceOffer,
  tenant: string | null,
  synthesizer: Synthesizer,
  pronounce: Pronounce,
  tally: ParagraphTally,
  writer: RenderWriter,
  { phases, seat, holdsJob, later }: Pick<RenderOptions, "phases" | "seat" | "holdsJob" | "later">,
): Promise<{ ok: true; paragraphStarts: number[]; words: RenderedWord[] } | SynthFailure> {
  const timeline = new ParagraphTimeline(paragraphs);
  for (const segment of segments) {
    const voiced = await voiceSegment(store, segment, offer, tenant, synthesizer, pronounce, tally, (parts, unit) => writer.add(parts, unit), {
      phases,
      seat,
      holdsJob,
      later,
    });
    if (!voiced.ok) return voiced;
    timeline.add(segment, voiced.starts, voiced.samples, voiced.words);
    await writer.endSegment();
  }
  return { ok: true, paragraphStarts: timeline.finish(), words: timeline.words() };
}

/** The pronunciation entries that apply to a text for an offer's engine, and their digest (kernel/lexicon.ts). */
type Pronunciations = (offer: VoiceOffer, text: string) => ReturnType<Pronounce>;

/** Reads the lexicon of `publisher` once; what applies to a text depends only on the engine's lexicon mode. */
async function pronunciations(store: RenderStoreRpc, publisher: string | null): Promise<Pronunciations> {
  const lexicon = await store.lexiconFor(publisher);
  return async (offer, text) => {
    const entries = entriesFor(lexicon, text, PROVIDERS[offer.provider].lexicon);
    return { entries, digest: await lexiconDigest(entries) };
  };
}

/** The first of `offers` whose audio of `text` (with the pronunciations that apply) is stored for `tenant`, as a cache hit. */
async function findCached(
  store: RenderStoreRpc,
  offers: VoiceOffer[],
  text: string,
  requested: string | null,
  pronounce: Pronunciations,
  tenant: string | null,
): Promise<Omit<RenderResult, "characters_synthesized" | "paragraphs_reused" | "paragraphs_encoded"> | null> {
  const keys = await Promise.all(offers.map(async (o) => cacheKey(o.provider, o.id, text, (await pronounce(o, text)).digest, tenant)));
  const rows = await store.findAudio(keys);
  for (const key of keys) {
    const row = rows.find((r) => r.key === key);
    if (!row) continue;
    const quality = PROVIDERS[row.provider as ProviderId].quality;
    return {
      key,
      provider: row.provider,
      voice: row.voice,
      quality,
      requested_voice: requested,
      fallback: false,
      cached: true,
      duration_seconds: row.durationSeconds,
    };
  }
  return null;
}
