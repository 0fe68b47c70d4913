import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { BEACON_EVENTS, recordBeacon } from "../beacons";

const SlugParams = v.object({ slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The article's slug.")) });

const BeaconRequest = named(
  "BeaconRequest",
  v.object({ event: v.pipe(v.picklist(BEACON_EVENTS), v.description("start: playback began; complete: it reached the end.")) }),
);

export const postBeacon = route({
  method: "POST",
  path: "/v1/articles/:slug/beacons",
  tag: "stats",
  summary: "The embed player's beacon: a start or a completion of an article's audio",
  description:
    "Sent by the embeddable player (fetch with keepalive). Counted once per listener, article and event in a UTC day, never for a bot; " +
    "the answer is 204 whether or not it counted, and the counting happens after it.",
  auth: "none",
  rateLimit: "pages",
  params: SlugParams,
  body: BeaconRequest,
  responses: { 204: { description: "Received" } },
  handle({ env, ctx, request, params, body }) {
    const address = request.headers.get("cf-connecting-ip") ?? "";
    const userAgent = request.headers.get("user-agent") ?? "";
    ctx.waitUntil(
      recordBeacon(env, params.slug, body.event, address, userAgent, new Date()).catch((err: unknown) =>
        console.error(`beacon not counted: ${err instanceof Error ? err.name : "error"}`),
      ),
    );
    return new Response(null, { status: 204 });
  },
});
