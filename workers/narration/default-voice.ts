import { eq } from "drizzle-orm";
import { type Database, publisherSettings } from "../db/index";
import { defaultVoiceOf } from "../kernel/language";

/**
 * The voice `publisher` set as its default for `language` (PATCH /v1/publishers/{publisher}/settings
 * `default_voices`); undefined when it set none. The render tries it before the catalogue's best.
 */
export async function publisherDefaultVoice(db: Database, publisher: string, language: string): Promise<string | undefined> {
  const row = await db.select({ voices: publisherSettings.defaultVoices }).from(publisherSettings).where(eq(publisherSettings.publisher, publisher)).get();
  return row ? defaultVoiceOf(row.voices, language) : undefined;
}
