import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { sha256Hex } from "../core/crypto";
import { coveredBytes, minuteBytes, pruneListening, recordDownload, type AudioHit } from "./download-count";
import { appName } from "./podcast-app-names";

/**
 * The IAB Podcast Measurement Technical Guidelines 2.2 rules, one by one (docs/publishers.md "Listening
 * numbers"). The numbers are the guidelines' own, written out: a minute of audio, 24 hours. The file
 * here lasts 600 s and weighs 600,000 bytes, so a second is 1,000 bytes and a minute 60,000.
 */

const APPLE = "AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)";
const SPOTIFY = "Spotify/8.8.96 Android/34 (Pixel 8)";
const OVERCAST = "Overcast/3.0 (+http://overcast.fm/; iOS podcast app)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const ADDRESS = "198.51.100.23";
const SIZE = 600_000;
const T0 = new Date("2026-11-20T10:00:00Z");
const HOUR = 3_600_000;

async function episode(over: { seconds?: number } = {}) {
  const key = await sha256Hex(crypto.randomUUID());
  const article = await addArticle({ audioKey: key, listenSeconds: over.seconds ?? 600, publisher: "Harbour Gazette" });
  return { key, article };
}

function hit(key: string, first: number, last: number, over: Partial<AudioHit> = {}): AudioHit {
  return { key, size: SIZE, first, last, address: ADDRESS, userAgent: APPLE, at: T0, ...over };
}

const downloads = async () =>
  (
    await env.DB.prepare("SELECT day, app, SUM(downloads) AS n FROM listening_days GROUP BY day, app ORDER BY day, app").all<{
      day: string;
      app: string;
      n: number;
    }>()
  ).results;

describe("IAB 2.2: at least one minute of audio, or the whole file", () => {
  it("the bytes of a minute follow the file's own rate; a file shorter than a minute needs all of it", () => {
    expect(minuteBytes(600_000, 600)).toBe(60_000);
    expect(minuteBytes(30_000, 30)).toBe(30_000);
    // Without a recorded duration: the platform's 64 kbit/s MP3, 8,000 bytes a second.
    expect(minuteBytes(10_000_000, null)).toBe(480_000);
  });

  it("59 seconds of audio is not a download; 60 seconds is", async () => {
    const { key } = await episode();
    expect(await recordDownload(env, hit(key, 0, 58_999))).toBe("partial");
    expect(await downloads()).toEqual([]);
    expect(await recordDownload(env, hit(key, 0, 59_999, { address: "198.51.100.24" }))).toBe("counted");
    expect(await downloads()).toEqual([{ day: "2026-11-20", app: "Apple Podcasts", n: 1 }]);
  });

  it("byte ranges are summed across requests, a byte fetched twice counting once", async () => {
    const { key } = await episode();
    // Apple Podcasts' probe, then chunks: 2 + 29,998 + 20,000 (overlapping) + 10,000 bytes.
    expect(await recordDownload(env, hit(key, 0, 1))).toBe("partial");
    expect(await recordDownload(env, hit(key, 0, 29_999))).toBe("partial");
    expect(await recordDownload(env, hit(key, 20_000, 49_999))).toBe("partial");
    expect(
      coveredBytes([
        [0, 1],
        [0, 29_999],
        [20_000, 49_999],
      ]),
    ).toBe(50_000);
    expect(await recordDownload(env, hit(key, 50_000, 59_999, { at: new Date(T0.getTime() + 5 * 60_000) }))).toBe("counted");
    expect(await downloads()).toEqual([{ day: "2026-11-20", app: "Apple Podcasts", n: 1 }]);
  });

  it("a file shorter than a minute counts when all of it arrived", async () => {
    const { key } = await episode({ seconds: 30 });
    expect(await recordDownload(env, hit(key, 0, 29_998, { size: 30_000 }))).toBe("partial");
    expect(await recordDownload(env, hit(key, 29_999, 29_999, { size: 30_000 }))).toBe("counted");
  });
});

describe("IAB 2.2: once per address, user agent and episode in 24 hours", () => {
  it("a second full download the same day adds nothing; the next day it counts again", async () => {
    const { key } = await episode();
    expect(await recordDownload(env, hit(key, 0, SIZE - 1))).toBe("counted");
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { at: new Date(T0.getTime() + 2 * HOUR) }))).toBe("already");
    // 22 hours on is past midnight UTC, a new salt, but inside the same 24 hours: still one.
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { at: new Date(T0.getTime() + 22 * HOUR) }))).toBe("already");
    // 25 hours on, the window is over: a second download, on the second day.
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { at: new Date(T0.getTime() + 25 * HOUR) }))).toBe("counted");
    expect(await downloads()).toEqual([
      { day: "2026-11-20", app: "Apple Podcasts", n: 1 },
      { day: "2026-11-21", app: "Apple Podcasts", n: 1 },
    ]);
  });

  it("two apps behind one address are two listeners, each named by its user agent", async () => {
    const { key } = await episode();
    expect(await recordDownload(env, hit(key, 0, SIZE - 1))).toBe("counted");
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { userAgent: SPOTIFY }))).toBe("counted");
    expect(await downloads()).toEqual([
      { day: "2026-11-20", app: "Apple Podcasts", n: 1 },
      { day: "2026-11-20", app: "Spotify", n: 1 },
    ]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM daily_listeners").first("n")).toBe(2);
  });

  it("one listener's two episodes are two downloads", async () => {
    const [one, two] = [await episode(), await episode()];
    expect(await recordDownload(env, hit(one.key, 0, SIZE - 1))).toBe("counted");
    expect(await recordDownload(env, hit(two.key, 0, SIZE - 1))).toBe("counted");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM daily_listeners").first("n")).toBe(1);
  });
});

describe("a counted listener's further requests", () => {
  /** env with a D1 whose statements are counted: what a request costs the database. */
  function countingDb() {
    const db = { statements: 0 };
    const DB = new Proxy(env.DB, {
      get(target, name) {
        if (name === "prepare") db.statements++;
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return { db, env: { DB } };
  }

  it("are answered without D1 until the window ends; other listeners and episodes still are counted", async () => {
    const [one, two] = [await episode(), await episode()];
    const { db, env: counting } = countingDb();
    expect(await recordDownload(counting, hit(one.key, 0, SIZE - 1))).toBe("counted");
    const afterCount = db.statements;
    for (const [first, last] of [
      [0, 1],
      [300_000, 599_999],
    ])
      expect(await recordDownload(counting, hit(one.key, first, last, { at: new Date(T0.getTime() + HOUR) }))).toBe("already");
    expect(db.statements).toBe(afterCount);
    // Another listener, and this listener's other episode, go to D1 and count.
    expect(await recordDownload(counting, hit(one.key, 0, SIZE - 1, { userAgent: SPOTIFY }))).toBe("counted");
    expect(await recordDownload(counting, hit(two.key, 0, SIZE - 1))).toBe("counted");
    // 25 hours on, the window is over: D1 is asked again, and it counts.
    expect(await recordDownload(counting, hit(one.key, 0, SIZE - 1, { at: new Date(T0.getTime() + 25 * HOUR) }))).toBe("counted");
    expect(await downloads()).toEqual([
      { day: "2026-11-20", app: "Apple Podcasts", n: 2 },
      { day: "2026-11-20", app: "Spotify", n: 1 },
      { day: "2026-11-21", app: "Apple Podcasts", n: 1 },
    ]);
  });

  it("are answered without D1 when another request's count won the window", async () => {
    const { key } = await episode();
    const { db, env: counting } = countingDb();
    const [a, b] = await Promise.all([recordDownload(counting, hit(key, 0, SIZE - 1)), recordDownload(counting, hit(key, 0, SIZE - 1))]);
    expect([a, b].sort()).toEqual(["already", "counted"]);
    const before = db.statements;
    expect(await recordDownload(counting, hit(key, 0, 1, { at: new Date(T0.getTime() + HOUR) }))).toBe("already");
    expect(db.statements).toBe(before);
    expect(await downloads()).toEqual([{ day: "2026-11-20", app: "Apple Podcasts", n: 1 }]);
  });
});

describe("IAB 2.2: known bots are never counted", () => {
  it("a crawler's download leaves no trace, and one without a user agent neither", async () => {
    const { key } = await episode();
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { userAgent: GOOGLEBOT }))).toBe("bot");
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { userAgent: "" }))).toBe("bot");
    expect(await downloads()).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM download_windows").first("n")).toBe(0);
  });

  it("a podcast app whose agent carries a URL is a listener, not a crawler", async () => {
    const { key } = await episode();
    expect(await recordDownload(env, hit(key, 0, SIZE - 1, { userAgent: OVERCAST }))).toBe("counted");
    expect(appName(OVERCAST)).toBe("Overcast");
  });
});

describe("the salted listener", () => {
  it("no address is stored, and each day hashes the same listener differently", async () => {
    const { key } = await episode();
    await recordDownload(env, hit(key, 0, SIZE - 1));
    await recordDownload(env, hit(key, 0, SIZE - 1, { at: new Date(T0.getTime() + 25 * HOUR) }));
    const hashes = (await env.DB.prepare("SELECT listener_hash FROM download_windows").all<{ listener_hash: string }>()).results.map((r) => r.listener_hash);
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).not.toBe(hashes[1]);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });

  it("a day's salt goes when its day and the next are over; windows and spans after two days", async () => {
    const { key } = await episode();
    await recordDownload(env, hit(key, 0, 999));
    const count = async (table: string) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first("n");
    // Late the next day, the day's salt still hashes the windows carried over from it.
    await pruneListening(env, new Date(T0.getTime() + 37 * HOUR));
    expect(await env.DB.prepare("SELECT day FROM listener_salts").first("day")).toBe("2026-11-20");
    // From the day after next, no request can use it: it goes, and with it any way back to an address.
    await pruneListening(env, new Date(T0.getTime() + 38 * HOUR));
    expect(await count("listener_salts")).toBe(0);
    expect(await count("download_spans")).toBe(1);
    await pruneListening(env, new Date(T0.getTime() + 49 * HOUR));
    for (const table of ["download_windows", "download_spans"]) expect(await count(table), table).toBe(0);
  });
});
