import * as v from "valibot";
import { ApiError, ValidationError } from "../../core/errors";
import { studioPage } from "../../studio/layout";
import { CreateWebhookRequest, createEndpoint, deliveryLog, listEndpoints } from "../endpoints";
import { DELIVERY_LOG_PAGE, type WebhooksNotice, webhooksPage } from "../pages/webhooks-page";

/**
 * POST {WEB_URL}/studio/{publisher}/webhooks: an editor adds an endpoint, by the API's own rules
 * (CreateWebhookRequest, createEndpoint). The answer is the page itself with the new secret, shown
 * this once (a redirect would lose it); a refused URL is the page again with why (422).
 */
export const postStudioWebhook = studioPage({
  method: "POST",
  path: "/studio/:publisher/webhooks",
  summary: "Adds a webhook endpoint",
  role: "editor",
  async handle({ env, studio, field, fields }) {
    const url = field("url").trim();
    const page = async (notice: WebhooksNotice) =>
      webhooksPage(env, studio, await listEndpoints(env, studio.publisher), await deliveryLog(env, studio.publisher, DELIVERY_LOG_PAGE), notice);
    const events = fields("events");
    if (!events.length) return page({ url, problems: ["events: choose at least one event"] });
    const body = v.safeParse(CreateWebhookRequest, { url, events });
    if (!body.success) return page({ url, problems: body.issues.map((i) => `${v.getDotPath(i) ?? "form"}: ${i.message}`) });
    try {
      const created = await createEndpoint(env, studio.publisher, body.output);
      return page({ created });
    } catch (err) {
      if (err instanceof ValidationError) return page({ url, problems: err.issues.map((i) => `${i.loc.at(-1)}: ${i.msg}`) });
      if (err instanceof ApiError && err.code === "conflict") return page({ url, problems: [err.message] });
      throw err;
    }
  },
});
