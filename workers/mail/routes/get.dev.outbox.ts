import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { limitQuery } from "../../kernel/fields";
import { outboxEnabled } from "../mailer";
import { outboxMessages } from "../outbox";

const OutboxMessage = v.object({
  id: v.number(),
  to: v.string(),
  subject: v.string(),
  text: v.pipe(v.string(), v.description("The plain-text part.")),
  html: v.pipe(v.string(), v.description("The HTML part.")),
  headers: v.pipe(v.record(v.string(), v.string()), v.description("Extra header fields, e.g. List-Unsubscribe.")),
  created_at: v.string(),
});

const OutboxResponse = named("OutboxResponse", v.object({ messages: v.array(OutboxMessage) }));

/** Local development only: reads the mail the service would have sent. Absent (404) unless MAIL_OUTBOX=true and BASE_URL is local (mail/mailer.ts). */
export const listOutbox = route({
  method: "GET",
  path: "/v1/dev/outbox",
  tag: "development",
  summary: "The local mail outbox, newest first (only with MAIL_OUTBOX=true and BASE_URL on this machine)",
  auth: "none",
  query: limitQuery(20),
  responses: {
    200: { description: "The stored messages", schema: OutboxResponse },
    404: { description: "The outbox is off" },
  },
  async handle({ env, query }) {
    if (!outboxEnabled(env)) throw new ApiError("not_found", "no resource at /v1/dev/outbox");
    const rows = await outboxMessages(env, query.limit);
    const messages = rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      headers: m.headers,
      created_at: m.createdAt.toISOString(),
    }));
    return Response.json({ messages }, { headers: { "Cache-Control": "no-store" } });
  },
});
