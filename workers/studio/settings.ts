import { eq } from "drizzle-orm";
import { database, publisherSettings } from "../db/index";

/** A publisher's settings (docs/publishers.md "Review before release", "Default voice per language"); one without a row has the defaults. */

export interface Settings {
  review_before_release: boolean;
  /** Language tag -> the voice that speaks it when a narration asks for none. */
  default_voices: Record<string, string>;
}

/** A change of settings: `default_voices` names only the languages it changes, null removing one. */
export interface SettingsChange {
  review_before_release?: boolean;
  default_voices?: Record<string, string | null>;
}

const DEFAULTS: Settings = { review_before_release: false, default_voices: {} };

/** The publisher's settings. */
export async function settingsOf(env: Pick<Env, "DB">, publisher: string): Promise<Settings> {
  const row = await database(env).query.publisherSettings.findFirst({ where: eq(publisherSettings.publisher, publisher) });
  return row ? { review_before_release: row.reviewBeforeRelease, default_voices: row.defaultVoices } : DEFAULTS;
}

/**
 * Changes the settings given and returns them all. Turning review off releases nothing by itself:
 * renders already waiting keep waiting for an editor, so audio never goes out unseen because of a switch.
 */
export async function updateSettings(env: Pick<Env, "DB">, publisher: string, change: SettingsChange): Promise<Settings> {
  const current = await settingsOf(env, publisher);
  const voices = { ...current.default_voices, ...change.default_voices };
  const next: Settings = {
    review_before_release: change.review_before_release ?? current.review_before_release,
    default_voices: Object.fromEntries(Object.entries(voices).filter((e): e is [string, string] => e[1] !== null)),
  };
  const set = { reviewBeforeRelease: next.review_before_release, defaultVoices: next.default_voices, updatedAt: new Date() };
  await database(env)
    .insert(publisherSettings)
    .values({ publisher, ...set })
    .onConflictDoUpdate({ target: publisherSettings.publisher, set });
  return next;
}
