import * as v from "valibot";
import { route } from "../core/route";
import { named } from "../core/schema-registry";
import { sendDailyDigest } from "../listeners/digest";

const DigestRunResponse = named(
  "DigestRunResponse",
  v.object({
    mail_configured: v.pipe(v.boolean(), v.description("False: no mail provider and no outbox, so nothing was sent.")),
    considered: v.pipe(v.number(), v.description("Active listeners looked at.")),
    sent: v.number(),
    skipped_recent: v.pipe(v.number(), v.description("Listeners sent a digest under 20 hours ago (silently skipped).")),
    skipped_empty: v.pipe(v.number(), v.description("Listeners with no new article in their verticals.")),
    failed: v.pipe(v.number(), v.description("Sends the provider refused; those listeners are retried on the next run.")),
  }),
);

export const runDigest = route({
  method: "POST",
  path: "/v1/admin/digest/run",
  tag: "admin",
  summary: "Send the daily digest e-mail to every active listener now (the cron does this at 07:00 UTC)",
  auth: "admin",
  responses: {
    200: { description: "What the run did", schema: DigestRunResponse },
    401: { description: "No valid admin token" },
  },
  async handle({ env }) {
    return Response.json(await sendDailyDigest(env));
  },
});
