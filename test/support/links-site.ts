import { inject } from "vitest";
import { callWith } from "./narration";
import { jsonBody } from "./client";

declare module "vitest" {
  interface ProvidedContext {
    linksSiteUrl: string;
  }
}

/** A page of the link tests' loopback site (scripts/links-site.mjs). */
export function sitePage(path: string): string {
  return `${inject("linksSiteUrl")}${path}`;
}

/**
 * The service in development: WEB_URL on this machine, so the guarded fetcher reaches loopback pages as
 * `npm start` does (kernel/guarded-fetch.ts). Outside development, as in every other test, it never does.
 */
export const DEVELOPMENT = { WEB_URL: "http://127.0.0.1:8787", BASE_URL: "http://127.0.0.1:8787" };

/** POST /v1/listeners/{token}/links through the router, in development. */
export function addLinkInDevelopment(token: string, url: string): Promise<Response> {
  return callWith(null, `/v1/listeners/${token}/links`, jsonBody("POST", { url }), DEVELOPMENT);
}
