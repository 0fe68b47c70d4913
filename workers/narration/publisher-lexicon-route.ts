import type * as v from "valibot";
import { route, type Method, type RawBody, type ResponseDoc, type Route, type RouteInput } from "../core/route";
import type { LexiconScope } from "./lexicon-service";
import { PublisherParams } from "../kernel/fields";
import { publisherScope } from "./lexicon-schemas";

type ObjectLike = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

/** What a route of a publisher's lexicon declares; the rest is the same for all of them. */
interface PublisherLexiconDef<Q extends ObjectLike | undefined, B extends v.GenericSchema | undefined> {
  method: Method;
  /** Below /v1/publishers/:publisher/lexicon/. */
  path: string;
  summary: string;
  description: string;
  query?: Q;
  body?: B;
  rawBodies?: Record<string, RawBody>;
  responses: Record<number, ResponseDoc>;
  /** `scope` is the publisher of the path, once the caller has been found to act for it. */
  handle(
    input: Omit<RouteInput<typeof PublisherParams, Q, B, undefined, "api_key_or_admin">, "caller" | "params"> & { scope: LexiconScope },
  ): Response | Promise<Response>;
}

/**
 * A route of one publisher's lexicon (/v1/publishers/{publisher}/lexicon/...): that publisher's key,
 * the operator's API key or the admin token (the `api_key_or_admin` credential), throttled as the
 * admin paths are; another publisher's lexicon is a 404 (publisherScope), decided before the handler runs.
 */
export function publisherLexiconRoute<Q extends ObjectLike | undefined = undefined, B extends v.GenericSchema | undefined = undefined>(
  def: PublisherLexiconDef<Q, B>,
): Route {
  const { handle, path, description, ...rest } = def;
  return route<typeof PublisherParams, Q, B, undefined, "api_key_or_admin">({
    ...rest,
    path: `/v1/publishers/:publisher/lexicon/${path}`,
    tag: "narration",
    description: `The lexicon of one publisher's articles, over the global one. Requires that publisher's API key (Authorization: Bearer npk_...), the operator's API key or the admin token (x-service-email-token); another publisher's lexicon is a 404. ${description}`,
    auth: "api_key_or_admin",
    rateLimit: "admin",
    params: PublisherParams,
    handle: ({ caller, params, ...input }) => handle({ ...input, scope: publisherScope(caller, params.publisher) }),
  });
}
