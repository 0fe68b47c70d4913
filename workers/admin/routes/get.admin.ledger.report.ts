import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import * as v from "valibot";
import { ValidationError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database, type LEDGER_PARTIES, ledgerEntries, plays, x402Calls } from "../../db";

/** The period a report covers when `from` is not given. */
const DEFAULT_DAYS = 30;

const instant = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/, "must be an ISO 8601 date or date-time with offset"),
    v.check((s) => !Number.isNaN(Date.parse(s)), "must be a real date"),
    v.description(what),
  );

const ReportQuery = v.object({
  from: v.optional(instant(`Start of the period, inclusive (a date is its 00:00 UTC). Default: ${DEFAULT_DAYS} days before \`to\`.`)),
  to: v.optional(instant("End of the period, exclusive. Default: now.")),
});

const Total = v.object({ micros: v.pipe(v.number(), v.description("Sum in micro-dollars (USDC atomic units).")), entries: v.number() });

const LedgerReport = named(
  "LedgerReport",
  v.object({
    from: v.string(),
    to: v.string(),
    total_micros: v.pipe(v.number(), v.description("Every ledger entry of the period.")),
    platform_micros: v.number(),
    publishers: v.pipe(
      v.array(v.object({ publisher: v.string(), ...Total.entries })),
      v.description('Publisher legs per publisher, largest first; "*" is a share of a call that returned no article.'),
    ),
    agents: v.pipe(
      v.array(v.object({ agent_id: v.nullable(v.string()), ...Total.entries })),
      v.description(
        "Agent recommender legs per agent (the play's agent, or the paid call's agent: the named one or the paying wallet as CAIP-10), largest first; null when no agent was named.",
      ),
    ),
    sources: v.pipe(
      v.array(v.object({ source: v.string(), ...Total.entries })),
      v.description("Every entry per source: play, x402:<tool>, partner_paywall_click_through."),
    ),
  }),
);

export const getLedgerReport = route({
  method: "GET",
  path: "/v1/admin/ledger/report",
  tag: "admin",
  summary: "Per-publisher and per-agent ledger totals over a period (plays and paid agent calls)",
  auth: "admin",
  query: ReportQuery,
  responses: {
    200: { description: "Totals of the period", schema: LedgerReport },
    401: { description: "No valid admin token" },
  },
  async handle({ env, query }) {
    const to = query.to ? Date.parse(query.to) : Date.now();
    const from = query.from ? Date.parse(query.from) : to - DEFAULT_DAYS * 86_400_000;
    if (from > to) throw new ValidationError([{ loc: ["query", "from"], msg: "must not be after to", type: "value_error" }]);
    const db = database(env);
    const inPeriod = and(gte(ledgerEntries.createdAt, new Date(from)), lt(ledgerEntries.createdAt, new Date(to)));
    const micros = sql<number>`coalesce(sum(${ledgerEntries.amountMicros}), 0)`;
    const entries = sql<number>`count(*)`;
    const party = (p: (typeof LEDGER_PARTIES)[number]) => and(inPeriod, eq(ledgerEntries.party, p));
    const agentId = sql<string | null>`coalesce(${x402Calls.agentId}, ${plays.agentId})`;
    const platformMicros = sql<number>`coalesce(sum(case when ${ledgerEntries.party} = 'platform' then ${ledgerEntries.amountMicros} end), 0)`;
    const [publishers, agents, sources] = await Promise.all([
      db
        .select({ publisher: ledgerEntries.publisher, micros, entries })
        .from(ledgerEntries)
        .where(party("publisher"))
        .groupBy(ledgerEntries.publisher)
        .orderBy(desc(micros), ledgerEntries.publisher),
      db
        .select({ agent_id: agentId, micros, entries })
        .from(ledgerEntries)
        .leftJoin(plays, eq(ledgerEntries.playId, plays.id))
        .leftJoin(x402Calls, eq(ledgerEntries.x402CallId, x402Calls.id))
        .where(party("agent_recommender"))
        .groupBy(agentId)
        .orderBy(desc(micros), agentId),
      db
        .select({ source: ledgerEntries.source, micros, entries, platform: platformMicros })
        .from(ledgerEntries)
        .where(inPeriod)
        .groupBy(ledgerEntries.source)
        .orderBy(ledgerEntries.source),
    ]);
    const out: v.InferOutput<typeof LedgerReport> = {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      total_micros: sources.reduce((s, r) => s + r.micros, 0),
      platform_micros: sources.reduce((s, r) => s + r.platform, 0),
      publishers,
      agents,
      sources: sources.map(({ source, micros, entries }) => ({ source, micros, entries })),
    };
    return Response.json(out, { headers: { "Cache-Control": "no-store" } });
  },
});
