import { studioPage } from "../../studio/layout";
import { deliveryLog, listEndpoints } from "../endpoints";
import { DELIVERY_LOG_PAGE, webhooksPage } from "../pages/webhooks-page";

/** GET {WEB_URL}/studio/{publisher}/webhooks: the endpoints and the delivery log, for any member. */
export const getStudioWebhooks = studioPage({
  method: "GET",
  path: "/studio/:publisher/webhooks",
  summary: "A publisher's webhook endpoints and delivery log",
  handle: async ({ env, studio }) =>
    webhooksPage(env, studio, await listEndpoints(env, studio.publisher), await deliveryLog(env, studio.publisher, DELIVERY_LOG_PAGE)),
});
