// What each encoding says about itself (docs/narration.md "Marked as synthetic"): the article's title and
// publisher, the engine and voice that spoke, and a plain statement that the voice is synthetic
// (EU AI Act Article 50(2): synthetic audio marked in a machine-readable way). The MP3 carries them
// as an ID3v2.4 tag before its first frame, the Opus as Vorbis comments in its OpusTags header; both
// are part of the stored bytes, so the feeds' enclosure lengths include them.
import { AI_NARRATION, engineName, syntheticVoice, syntheticVoiceStatement } from "../../kernel/synthetic-voice";
import { id3v24, type Id3Frame } from "../engine/id3";

/** What a render narrates and who speaks it. Title and publisher are unknown for raw text and for audio rendered before tags. */
export interface AudioAbout {
  title?: string | null;
  publisher?: string | null;
  /** The article's address, which the C2PA manifest names (c2pa.ts); not in the ID3 tag or the Opus comments. */
  url?: string | null;
  provider: string;
  voice: string;
}

/**
 * The ID3v2.4 tag of the MP3: TIT2, TPE1 and TPUB, COMM with the statement, TXXX frames that a program can match,
 * then `more` (the C2PA manifest's GEOB frame: c2pa.ts).
 */
export function mp3Tag(about: AudioAbout, more: Id3Frame[] = []): Uint8Array {
  const statement = syntheticVoiceStatement(about.provider, about.voice);
  return id3v24([
    ...(about.title ? [{ id: "TIT2", text: about.title } as const] : []),
    ...(about.publisher ? [{ id: "TPE1", text: about.publisher } as const, { id: "TPUB", text: about.publisher } as const] : []),
    { id: "COMM", description: "", text: statement },
    { id: "TXXX", description: AI_NARRATION, text: syntheticVoice(about.provider, about.voice) },
    { id: "TXXX", description: "TTS engine", text: engineName(about.provider) },
    { id: "TXXX", description: "TTS voice", text: about.voice },
    ...more,
  ]);
}

/** The Opus comment header's Vorbis comments: the same facts under the usual names (TITLE, ARTIST, ORGANIZATION, COMMENT). */
export function opusComments(about: AudioAbout): [string, string][] {
  const statement = syntheticVoiceStatement(about.provider, about.voice);
  return [
    ...(about.title ? [["TITLE", about.title] as [string, string]] : []),
    ...(about.publisher
      ? ([
          ["ARTIST", about.publisher],
          ["ORGANIZATION", about.publisher],
        ] as [string, string][])
      : []),
    ["COMMENT", statement],
    ["AI_GENERATED", syntheticVoice(about.provider, about.voice)],
    ["TTS_ENGINE", engineName(about.provider)],
    ["TTS_VOICE", about.voice],
  ];
}
