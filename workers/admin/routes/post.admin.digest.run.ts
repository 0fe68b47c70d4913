import { route } from "../../core/route";
import { DigestRunResponse, sendDailyDigest } from "../../listeners/digest";

export const runDigest = route({
  method: "POST",
  path: "/v1/admin/digest/run",
  tag: "admin",
  summary: "Send the daily digest e-mail to every active listener now (the cron does this at 07:00 UTC)",
  auth: "admin",
  responses: {
    200: { description: "What the run did", schema: DigestRunResponse },
  },
  async handle({ env }) {
    return Response.json(await sendDailyDigest(env));
  },
});
