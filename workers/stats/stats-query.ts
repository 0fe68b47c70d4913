import * as v from "valibot";
import { named } from "../core/schema-registry";

/**
 * A publisher's listening numbers over a range of UTC days (docs/publishers.md "Listening numbers"): the
 * rollups kernel/download-count.ts and beacons.ts write, and agents' plays from the ledger.
 */

const count = (what: string) => v.pipe(v.number(), v.description(what));

export const StatsDay = named(
  "StatsDay",
  v.object({
    date: v.pipe(v.string(), v.description("The UTC day, YYYY-MM-DD.")),
    downloads: count("Downloads by the IAB Podcast Measurement 2.2 rules."),
    listeners: count("Distinct listeners (address and user agent, hashed with the day's salt) with a download that day."),
    starts: count("Embed player starts, once per listener, article and day."),
    completions: count("Embed player completions, once per listener, article and day."),
    agent_plays: count("Agents' plays in the ledger: plays recorded with an agent_id, and paid get_audio_url calls."),
  }),
);

export const StatsArticle = named(
  "StatsArticle",
  v.object({ slug: v.string(), title: v.string(), downloads: v.number(), starts: v.number(), completions: v.number() }),
);

export const StatsApp = named(
  "StatsApp",
  v.object({ name: v.pipe(v.string(), v.description("The app its user agent names; Other when none.")), downloads: v.number() }),
);

export const StatsView = named(
  "PublisherStats",
  v.object({
    publisher: v.string(),
    from: v.string(),
    to: v.string(),
    days: v.pipe(v.array(StatsDay), v.description("Every day of the range, oldest first, zeros included.")),
    articles: v.pipe(v.array(StatsArticle), v.description("Articles with any count in the range, most downloaded first (at most 100).")),
    apps: v.pipe(v.array(StatsApp), v.description("Apps by downloads in the range, most first.")),
  }),
);

export type Stats = v.InferOutput<typeof StatsView>;

/** Days in a range at most (a year and a day). */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const Day = v.pipe(
  v.string(),
  v.isoDate("must be a date, YYYY-MM-DD"),
  v.check((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "must be a real date"),
);

/** The range and format of a publisher's numbers (the API's query and the studio page's). */
export const StatsQuery = v.pipe(
  v.object({
    from: v.pipe(v.optional(Day), v.description("The first UTC day, YYYY-MM-DD (default: 29 days before `to`).")),
    to: v.pipe(v.optional(Day), v.description("The last UTC day, YYYY-MM-DD, included (default: today).")),
    format: v.pipe(v.optional(v.picklist(["json", "csv"]), "json"), v.description("json, or csv: the days as text/csv.")),
  }),
  v.transform(({ from, to, format }) => {
    const last = to ?? new Date().toISOString().slice(0, 10);
    return { to: last, from: from ?? new Date(Date.parse(`${last}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10), format };
  }),
  v.forward(
    v.check(({ from, to }) => from <= to, "must not be before from"),
    ["to"],
  ),
  v.forward(
    v.check(({ from, to }) => (Date.parse(to) - Date.parse(from)) / DAY_MS < MAX_DAYS, `the range may span at most ${MAX_DAYS} days`),
    ["to"],
  ),
);

/** Every UTC day from `from` to `to`, both included. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The numbers of `publisher` from `from` to `to` (UTC days, both included), in one D1 batch. */
export async function publisherStats(env: Pick<Env, "DB">, publisher: string, from: string, to: string): Promise<Stats> {
  const db = env.DB;
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  const [days, listeners, agentPlays, articles, apps] = await db.batch([
    db
      .prepare(
        "SELECT day, SUM(downloads) AS downloads, SUM(starts) AS starts, SUM(completions) AS completions FROM listening_days " +
          "WHERE publisher = ? AND day BETWEEN ? AND ? GROUP BY day",
      )
      .bind(publisher, from, to),
    db.prepare("SELECT day, COUNT(*) AS listeners FROM daily_listeners WHERE publisher = ? AND day BETWEEN ? AND ? GROUP BY day").bind(publisher, from, to),
    // The publisher's leg of each agent play: a play recorded with an agent, or a paid get_audio_url call.
    db
      .prepare(
        "SELECT strftime('%Y-%m-%d', l.created_at / 1000, 'unixepoch') AS day, COUNT(*) AS agent_plays FROM ledger_entries l LEFT JOIN plays p ON p.id = l.play_id " +
          "WHERE l.publisher = ? AND l.party = 'publisher' AND l.created_at >= ? AND l.created_at < ? " +
          "AND (l.source = 'x402:get_audio_url' OR (l.source = 'play' AND p.agent_id IS NOT NULL)) GROUP BY day",
      )
      .bind(publisher, start, end),
    db
      .prepare(
        "SELECT a.slug, a.title, SUM(d.downloads) AS downloads, SUM(d.starts) AS starts, SUM(d.completions) AS completions " +
          "FROM listening_days d JOIN articles a ON a.id = d.article_id WHERE d.publisher = ? AND d.day BETWEEN ? AND ? " +
          "GROUP BY d.article_id ORDER BY downloads DESC, starts DESC, a.slug LIMIT 100",
      )
      .bind(publisher, from, to),
    db
      .prepare(
        "SELECT app AS name, SUM(downloads) AS downloads FROM listening_days WHERE publisher = ? AND day BETWEEN ? AND ? " +
          "GROUP BY app HAVING SUM(downloads) > 0 ORDER BY downloads DESC, app",
      )
      .bind(publisher, from, to),
  ]);
  const byDay = <T>(rows: T[]) => new Map(rows.map((r) => [(r as { day: string }).day, r]));
  const counted = byDay(days.results as { day: string; downloads: number; starts: number; completions: number }[]);
  const heard = byDay(listeners.results as { day: string; listeners: number }[]);
  const agents = byDay(agentPlays.results as { day: string; agent_plays: number }[]);
  return {
    publisher,
    from,
    to,
    days: daysBetween(from, to).map((date) => ({
      date,
      downloads: counted.get(date)?.downloads ?? 0,
      listeners: heard.get(date)?.listeners ?? 0,
      starts: counted.get(date)?.starts ?? 0,
      completions: counted.get(date)?.completions ?? 0,
      agent_plays: agents.get(date)?.agent_plays ?? 0,
    })),
    articles: articles.results as Stats["articles"],
    apps: apps.results as Stats["apps"],
  };
}

/**
 * The numbers as JSON, or with `format` csv the days as CSV (RFC 4180), one row a day under a header
 * row, as a file named after the publisher and the range.
 */
export function statsResponse(stats: Stats, format: "json" | "csv"): Response {
  if (format === "json") return Response.json(stats, { headers: { "Cache-Control": "no-store" } });
  const columns = ["date", "downloads", "listeners", "starts", "completions", "agent_plays"] as const;
  const rows = [columns.join(","), ...stats.days.map((d) => columns.map((c) => d[c]).join(","))];
  const filename = `${stats.publisher.replace(/[^A-Za-z0-9._-]+/g, "-")}-${stats.from}-${stats.to}.csv`;
  return new Response(rows.map((row) => `${row}\r\n`).join(""), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
  });
}
