import * as v from "valibot";
import type { ErrorRenderer } from "../core/errors";
import type { RateBucket } from "../core/rate-limit";
import { route, type Route, type RouteInput } from "../core/route";
import { pageErrors } from "./page-errors";

type PageAuth = "none" | "session" | "browser" | "studio";
type Params = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

/** What a page declares; everything else a route needs is the same for every page (see `page`). */
interface PageDef<P extends Params | undefined, A extends PageAuth> {
  method: "GET" | "POST";
  path: string;
  summary: string;
  auth: A;
  params?: P;
  /** The pages' own per-address budget unless given (core/rate-limit.ts). */
  rateLimit?: RateBucket;
  /** pageErrors unless given (the embed's are framable). */
  renderErrors?: ErrorRenderer;
  handle(input: RouteInput<P, undefined, undefined, undefined, A>): Response | Promise<Response>;
}

/**
 * A page of the web front-end as a route of the table: its failures are pages (HTML), it is left
 * out of the OpenAPI document, and every GET answers HEAD too (RFC 9110 §9.3.2: link checkers and
 * oEmbed consumers send it). Forms and query strings are read by the page itself.
 */
export function page<P extends Params | undefined = undefined, A extends PageAuth = PageAuth>(def: PageDef<P, A>): Route {
  return route<P, undefined, undefined, undefined, A>({
    tag: "web",
    rateLimit: "pages",
    renderErrors: pageErrors,
    openapi: false,
    responses: { 200: { description: def.summary, contentType: "text/html" } },
    ...def,
    method: def.method === "GET" ? ["GET", "HEAD"] : def.method,
  });
}

/** The slug of an article page's path, as given: an unknown one is the page's own "not found". */
export const SlugPath = v.object({ slug: v.pipe(v.string(), v.description("The article's slug.")) });
