// How the narration says that its voice is synthetic (docs/narration.md "Marked as synthetic"): the same words
// in the MP3's ID3 tag, the Opus comments, the player and the article page. EU AI Act Article 50(2)
// asks that synthetic audio be marked as such in a machine-readable way; Podcasting 2.0's
// podcast:txt purpose="ai-content" says it for a feed (workers/feeds/rss.ts).
import { PROVIDERS, type ProviderId } from "./voice-catalogue";

/** The engine's name as listeners know it: the provider's label without the note in brackets ("eSpeak NG"). */
export function engineName(provider: string): string {
  const label = (PROVIDERS as Partial<Record<string, { label: string }>>)[provider as ProviderId]?.label ?? provider;
  return label.replace(/\s*\([^)]*\)\s*$/, "");
}

/** Who speaks: "synthetic voice (eSpeak NG, en-US-female)". */
export function syntheticVoice(provider: string, voice: string): string {
  return `synthetic voice (${engineName(provider)}, ${voice})`;
}

/** The label of the statement, as a tag's name ("AI-generated narration"). */
export const AI_NARRATION = "AI-generated narration";

/** The plain statement every narration carries: "AI-generated narration: synthetic voice (eSpeak NG, en-US-female)". */
export function syntheticVoiceStatement(provider: string, voice: string): string {
  return `${AI_NARRATION}: ${syntheticVoice(provider, voice)}`;
}

/** What the player and the article page say: "Read by an AI voice: en-US-female (eSpeak NG)". */
export function readByAiVoice(provider: string, voice: string): string {
  return `Read by an AI voice: ${voice} (${engineName(provider)})`;
}
