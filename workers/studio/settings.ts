import { eq } from "drizzle-orm";
import { database, publisherSettings } from "../db/index";

/** A publisher's settings (docs/publishers.md "Review before release"); one without a row has the defaults. */

export interface Settings {
  review_before_release: boolean;
}

const DEFAULTS: Settings = { review_before_release: false };

/** The publisher's settings. */
export async function settingsOf(env: Pick<Env, "DB">, publisher: string): Promise<Settings> {
  const row = await database(env).query.publisherSettings.findFirst({ where: eq(publisherSettings.publisher, publisher) });
  return row ? { review_before_release: row.reviewBeforeRelease } : DEFAULTS;
}

/**
 * Changes the settings given and returns them all. Turning review off releases nothing by itself:
 * renders already waiting keep waiting for an editor, so audio never goes out unseen because of a switch.
 */
export async function updateSettings(env: Pick<Env, "DB">, publisher: string, change: Partial<Settings>): Promise<Settings> {
  const current = await settingsOf(env, publisher);
  const next = { ...current, ...change };
  await database(env)
    .insert(publisherSettings)
    .values({ publisher, reviewBeforeRelease: next.review_before_release, updatedAt: new Date() })
    .onConflictDoUpdate({ target: publisherSettings.publisher, set: { reviewBeforeRelease: next.review_before_release, updatedAt: new Date() } });
  return next;
}
