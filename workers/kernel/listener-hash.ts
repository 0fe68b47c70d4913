import { sha256Hex, randomToken } from "../core/crypto";

/**
 * Who a listener is for the listening numbers (docs/publishers.md "Listening numbers"): IAB Podcast
 * Measurement 2.2 counts by address and user agent, and no address may be stored. A listener is
 * SHA-256(salt of the day, address, user agent); each UTC day has its own random salt (listener_salts),
 * deleted two days later (kernel/download-count.ts pruneListening), after which no hash can be tied to an
 * address by trying them all. Yesterday's hash is computed too, so a 24-hour window opened before
 * midnight goes on after it.
 */

const DAY_MS = 86_400_000;

/** The UTC day of `at`, YYYY-MM-DD. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Salts already read, by day: a settled value per day, so at most one read per isolate and day. Null
 * when a past day had none: a salt is made only by a request of its own day, so once that day is over
 * none can appear (a fresh deployment's first day has no yesterday).
 */
const salts = new Map<string, string | null>();

/** Forgets the salts read (tests: storage is reset between them). */
export function forgetSalts(): void {
  salts.clear();
}

/** The salt of `day`; created when `create` and there is none yet (the first request of the day wins any race). */
async function saltOf(db: D1Database, day: string, create: boolean): Promise<string | null> {
  const known = salts.get(day);
  if (known || (known === null && !create)) return known;
  const read = db.prepare("SELECT salt FROM listener_salts WHERE day = ?").bind(day);
  const [, found] = create
    ? await db.batch<{ salt: string }>([
        db.prepare("INSERT INTO listener_salts (day, salt) VALUES (?, ?) ON CONFLICT DO NOTHING").bind(day, randomToken(32)),
        read,
      ])
    : [null, await read.all<{ salt: string }>()];
  const salt = found.results[0]?.salt ?? null;
  if (salt || !create) {
    if (salts.size > 4) salts.clear();
    salts.set(day, salt);
  }
  return salt;
}

/** A listener as of `at`: today's hash, yesterday's (null when that day had no salt), and today's date. */
export interface ListenerHashes {
  day: string;
  today: string;
  yesterday: string | null;
}

/** The listener behind `address` and `userAgent` at `at`. The address goes no further than this hash. */
export async function listenerHashes(env: Pick<Env, "DB">, address: string, userAgent: string, at: Date): Promise<ListenerHashes> {
  const day = dayOf(at);
  const [todaySalt, yesterdaySalt] = await Promise.all([saltOf(env.DB, day, true), saltOf(env.DB, dayOf(new Date(at.getTime() - DAY_MS)), false)]);
  const hash = (salt: string) => sha256Hex(`${salt}\n${address}\n${userAgent}`);
  const [today, yesterday] = await Promise.all([hash(todaySalt!), yesterdaySalt ? hash(yesterdaySalt) : null]);
  return { day, today, yesterday };
}
