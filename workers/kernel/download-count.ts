import { isbot } from "isbot";
import { randomToken } from "../core/crypto";
import { AUDIO_CAPABILITY_PATTERN, keyOfCapability } from "./audio-capability";
import { dayOf, listenerHashes } from "./listener-hash";
import { appName, podcastApp } from "./podcast-app-names";

/**
 * Downloads counted by the IAB Podcast Measurement Technical Guidelines 2.2 (docs/publishers.md
 * "Listening numbers"): one per listener (address and user agent, kernel/listener-hash.ts) and episode in 24
 * hours, once at least one minute of its audio, or the whole file, has reached the listener, in one
 * request or in byte ranges summed over several; never for a known bot.
 *
 * The audio route answers first and counts after (countDownload: ctx.waitUntil), so a listener never
 * waits on the count. What reached the listener is what the response carried: the Worker hands R2's
 * stream to the runtime without reading it, and counting its bytes in JavaScript would put a copy of
 * every chunk on the hottest path. A log-based counter reads bytes sent the same way.
 */

const DAY_MS = 86_400_000;
/** Windows, spans and beacon marks are kept two days: the last window that can still grow is 24 hours old. */
const KEEP_MS = 2 * DAY_MS;
/** A minute of audio (IAB 2.2: "at least one minute of content"). */
const MINUTE_SECONDS = 60;
/** Bytes per second when an article's duration is unknown: the platform's MP3s, 64 kbit/s CBR (docs/narration.md). */
const FALLBACK_BYTES_PER_SECOND = 8000;

/** One GET of the audio route, as counting needs it: the bytes the response carried and who asked. */
export interface AudioHit {
  key: string;
  /** The whole file's size, and the first and last byte the response carried. */
  size: number;
  first: number;
  last: number;
  address: string;
  userAgent: string;
  at: Date;
}

/** What a hit did: not a listener (a bot or no user agent), no article narrated by it, short of a minute so far, counted now, or counted before. */
export type HitOutcome = "bot" | "unknown" | "partial" | "counted" | "already";

/** A listener, not a crawler: a user agent that names a podcast app, or one the bot list (isbot) does not know. */
export function isListener(userAgent: string): boolean {
  return userAgent !== "" && (podcastApp(userAgent) !== null || !isbot(userAgent));
}

/** Bytes covered by the union of inclusive spans [first, last]: a byte fetched twice counts once. */
export function coveredBytes(spans: readonly (readonly [number, number])[]): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -1;
  for (const [first, last] of sorted) {
    if (last <= end) continue;
    total += last - Math.max(first, end + 1) + 1;
    end = last;
  }
  return total;
}

/** The bytes that hold a minute of audio of a `size`-byte file lasting `seconds`; the whole file when it is shorter. */
export function minuteBytes(size: number, seconds: number | null): number {
  const perSecond = seconds && seconds > 0 ? size / seconds : FALLBACK_BYTES_PER_SECOND;
  return Math.min(size, Math.ceil(perSecond * MINUTE_SECONDS));
}

/** The bytes a 200 or 206 of the audio route carried, from its headers; null for anything else (304, 302, 416, HEAD). */
function carried(response: Response): { size: number; first: number; last: number } | null {
  if (response.status === 200) {
    const size = Number(response.headers.get("Content-Length"));
    return size > 0 ? { size, first: 0, last: size - 1 } : null;
  }
  const range = response.status === 206 ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get("Content-Range") ?? "") : null;
  return range ? { first: Number(range[1]), last: Number(range[2]), size: Number(range[3]) } : null;
}

/** What the audio route's handler gets (core/route.ts RouteInput). */
interface AudioRequest {
  env: Env;
  ctx: ExecutionContext;
  request: Request;
  url: URL;
  params: { key: string };
}

/** The audio route's `handle`, each answer counted after it has been sent. */
export function countingDownloads(handle: (input: AudioRequest) => Promise<Response>): (input: AudioRequest) => Promise<Response> {
  return async (input) => {
    const response = await handle(input);
    // A private audio URL names its key by a capability (audio-capability.ts): the episode is the key's.
    const key = AUDIO_CAPABILITY_PATTERN.test(input.params.key) ? keyOfCapability(input.env, input.params.key) : input.params.key;
    if (key) countDownload(input.env, input.ctx, input.request, key, response);
    return response;
  };
}

/** Counts `response` to a GET of the audio stored under `key` after it has been sent (ctx.waitUntil). */
function countDownload(env: Pick<Env, "DB">, ctx: ExecutionContext, request: Request, key: string, response: Response): void {
  const bytes = request.method === "GET" ? carried(response) : null;
  if (!bytes) return;
  const hit = { key, ...bytes, address: request.headers.get("cf-connecting-ip") ?? "", userAgent: request.headers.get("user-agent") ?? "", at: new Date() };
  ctx.waitUntil(recordDownload(env, hit).catch((err: unknown) => console.error(`download count failed: ${err instanceof Error ? err.name : "error"}`)));
}

/**
 * Listeners this isolate saw counted, by today's hash and audio key: when their window ends. A podcast
 * app fetches an episode in many ranges, and once it is counted the rest change nothing (the windows
 * row says "already"), so they are answered here without the D1 reads that say so. Only a fact
 * that cannot change is kept: a counted window stays counted until it ends, in every isolate.
 */
const countedUntil = new Map<string, number>();
/** About 200 bytes each: at most a megabyte or so of an isolate's 128 MB. */
const COUNTED_KEPT = 4096;

/** Forgets the counted listeners (tests: storage is reset between them). */
export function forgetCountedListeners(): void {
  countedUntil.clear();
}

function rememberCounted(listener: string, windowStart: number): void {
  if (countedUntil.size >= COUNTED_KEPT) countedUntil.clear();
  countedUntil.set(listener, windowStart + DAY_MS);
}

/** The article whose current audio is `key` (the oldest, when several texts rendered the same): the episode. */
async function episodeOf(db: D1Database, key: string) {
  return db
    .prepare("SELECT id, publisher, listen_seconds AS seconds FROM articles WHERE audio_key = ? ORDER BY id LIMIT 1")
    .bind(key)
    .first<{ id: number; publisher: string; seconds: number | null }>();
}

/** Applies the IAB rules to one hit (docs/publishers.md "Listening numbers"); the outcome is for tests and logs. */
export async function recordDownload(env: Pick<Env, "DB">, hit: AudioHit): Promise<HitOutcome> {
  if (!isListener(hit.userAgent)) return "bot";
  const db = env.DB;
  const at = hit.at.getTime();
  const who = await listenerHashes(env, hit.address, hit.userAgent, hit.at);
  const listener = `${who.today} ${hit.key}`;
  if ((countedUntil.get(listener) ?? 0) > at) return "already";
  const episode = await episodeOf(db, hit.key);
  if (!episode) return "unknown";
  const windowOf = (hash: string) =>
    db.prepare("SELECT started_at, counted_by FROM download_windows WHERE listener_hash = ? AND article_id = ?").bind(hash, episode.id);
  const [today, yesterday] = await db.batch<{ started_at: number; counted_by: string | null }>([windowOf(who.today), windowOf(who.yesterday ?? "")]);
  // A window opened yesterday goes on for 24 hours under yesterday's hash; after that, today's opens.
  const carriedOver = yesterday.results[0] && yesterday.results[0].started_at > at - DAY_MS ? yesterday.results[0] : undefined;
  const hash = carriedOver ? who.yesterday! : who.today;
  const open = carriedOver ?? today.results[0];
  if (open?.counted_by) {
    rememberCounted(listener, open.started_at);
    return "already";
  }

  const [, , spans] = await db.batch([
    db
      .prepare("INSERT INTO download_windows (listener_hash, article_id, started_at, app) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(hash, episode.id, at, appName(hit.userAgent)),
    db
      .prepare("INSERT INTO download_spans (listener_hash, article_id, first_byte, last_byte, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(hash, episode.id, hit.first, hit.last, at),
    db.prepare("SELECT first_byte, last_byte FROM download_spans WHERE listener_hash = ? AND article_id = ?").bind(hash, episode.id),
  ]);
  const got = coveredBytes((spans.results as { first_byte: number; last_byte: number }[]).map((s) => [s.first_byte, s.last_byte] as const));
  if (got < minuteBytes(hit.size, episode.seconds)) return "partial";

  // Concurrent requests of one listener may all reach the minute: the one whose claim lands counts,
  // and the counts are written in the same batch only when it was this request's claim.
  const claim = randomToken(12);
  const claimed = "EXISTS (SELECT 1 FROM download_windows WHERE listener_hash = ? AND article_id = ? AND counted_by = ?)";
  const [won] = await db.batch([
    db.prepare("UPDATE download_windows SET counted_by = ? WHERE listener_hash = ? AND article_id = ? AND counted_by IS NULL").bind(claim, hash, episode.id),
    db
      .prepare(
        `INSERT INTO listening_days (publisher, day, article_id, app, downloads) SELECT ?, ?, ?, app, 1 FROM download_windows WHERE listener_hash = ? AND article_id = ? AND ${claimed} ` +
          "ON CONFLICT (publisher, day, article_id, app) DO UPDATE SET downloads = downloads + 1",
      )
      .bind(episode.publisher, who.day, episode.id, hash, episode.id, hash, episode.id, claim),
    db
      .prepare(`INSERT INTO daily_listeners (publisher, day, listener_hash) SELECT ?, ?, ? WHERE ${claimed} ON CONFLICT DO NOTHING`)
      .bind(episode.publisher, who.day, who.today, hash, episode.id, claim),
  ]);
  // Counted now or by a concurrent request: either way the window is counted until it ends.
  rememberCounted(listener, open?.started_at ?? at);
  return won.meta.changes > 0 ? "counted" : "already";
}

/** Deletes what only an open window needs once no window can be open (the 10-minute cron): windows, spans, beacon marks and old salts. */
export async function pruneListening(env: Pick<Env, "DB">, now = new Date()): Promise<void> {
  const before = now.getTime() - KEEP_MS;
  await env.DB.batch([
    env.DB.prepare("DELETE FROM download_windows WHERE started_at < ?").bind(before),
    env.DB.prepare("DELETE FROM download_spans WHERE created_at < ?").bind(before),
    env.DB.prepare("DELETE FROM beacon_marks WHERE created_at < ?").bind(before),
    // A day's salt hashes that day and, as yesterday's, the next one; then it goes.
    env.DB.prepare("DELETE FROM listener_salts WHERE day < ?").bind(dayOf(new Date(now.getTime() - DAY_MS))),
  ]);
}
