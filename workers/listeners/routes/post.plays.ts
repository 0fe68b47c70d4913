import { eq, sql } from "drizzle-orm";
import * as v from "valibot";
import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { articles, database, LEDGER_PARTIES, ledgerEntries, plays } from "../../db/index";
import { splitPlay } from "../../kernel/ledger-split";
import { listenerByToken } from "../../kernel/listener-tokens";

/** The largest play value accepted: $1,000,000 in micros, far below 2^53 so the split stays exact. */
const MAX_MICROS = 1_000_000_000_000;

const PlayRequest = named(
  "PlayRequest",
  v.object({
    article_slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The article that was played.")),
    amount_micros: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_MICROS), v.description("The play's value in micro-dollars (1e-6 USD).")),
    seconds: v.pipe(v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(86_400)), 0), v.description("Seconds listened.")),
    listener_token: v.pipe(v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))), v.description("The listener's account token, when known.")),
    agent_id: v.pipe(v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), v.description("The agent that recommended the article.")),
  }),
);

const PlayResponse = named(
  "PlayResponse",
  v.object({
    play_id: v.number(),
    article_slug: v.string(),
    amount_micros: v.number(),
    legs: v.pipe(
      v.array(v.object({ entry_id: v.number(), party: v.picklist(LEDGER_PARTIES), amount_micros: v.number() })),
      v.description("Publisher 70%, agent recommender 20%, platform 10%; they sum exactly to amount_micros."),
    ),
  }),
);

export const recordPlay = route({
  method: "POST",
  path: "/v1/plays",
  tag: "plays",
  summary: "Record a play: the play row and its three ledger legs, in one transaction",
  auth: "api_key",
  body: PlayRequest,
  responses: {
    200: { description: "The play and its legs", schema: PlayResponse },
    404: { description: "Unknown article or listener token" },
  },
  async handle({ env, body, caller }) {
    const db = database(env);
    const [article, listener] = await Promise.all([
      db.query.articles.findFirst({ where: eq(articles.slug, body.article_slug), columns: { id: true, publisher: true } }),
      body.listener_token ? listenerByToken(db, body.listener_token) : undefined,
    ]);
    // A publisher key records plays of its own publisher's articles only; another's is not found.
    if (!article || !mayActFor(caller, article.publisher)) throw new ApiError("not_found", "no article with this slug");
    if (body.listener_token && !listener) throw new ApiError("not_found", "no listener with this token");
    const listenerId = listener?.id ?? null;
    const split = splitPlay(body.amount_micros);
    // D1 runs a batch as one transaction on one connection, so the newest play id is the row inserted
    // just before; AUTOINCREMENT ids never go backwards.
    const playId = sql<number>`(select max(id) from plays)`;
    const leg = (party: (typeof LEDGER_PARTIES)[number]) =>
      db
        .insert(ledgerEntries)
        .values({ playId, listenerId, publisher: article.publisher, party, source: "play", amountMicros: split[party] })
        .returning({ id: ledgerEntries.id, party: ledgerEntries.party, amountMicros: ledgerEntries.amountMicros });
    const [[play], ...legs] = await db.batch([
      db
        .insert(plays)
        .values({ articleId: article.id, listenerId, agentId: body.agent_id, seconds: body.seconds, amountMicros: body.amount_micros })
        .returning({ id: plays.id }),
      leg("publisher"),
      leg("agent_recommender"),
      leg("platform"),
    ]);
    const out: v.InferOutput<typeof PlayResponse> = {
      play_id: play.id,
      article_slug: body.article_slug,
      amount_micros: body.amount_micros,
      legs: legs.map(([l]) => ({ entry_id: l.id, party: l.party!, amount_micros: l.amountMicros })),
    };
    return Response.json(out);
  },
});
