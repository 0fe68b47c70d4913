import { feedPage } from "./feed-page";

/**
 * Feed responses; conditional requests are workers/core/conditional.ts. Podcast apps and
 * directories poll feeds every few minutes; an unchanged feed costs them a 304 with no body.
 */

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
/** A feed body with its validators. */
export interface FeedBody {
  xml: string;
  etag: string;
  lastModified: Date;
}

/** The 200 response for `body` with `headers` (Cache-Control and friends). */
export function feedResponse(body: FeedBody, headers: Record<string, string>): Response {
  return new Response(body.xml, {
    headers: {
      "Content-Type": RSS_CONTENT_TYPE,
      ETag: body.etag,
      "Last-Modified": body.lastModified.toUTCString(),
      ...headers,
    },
  });
}

/** A browser's request: it asks for HTML first, where podcast apps ask for the feed or for anything. */
function fromBrowser(request: Request): boolean {
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

/**
 * The feed response as the asker reads it: to a browser, the feed's 200 as an HTML page drawn from
 * the same XML (feed-page.ts), without the XML's validators; to anyone else, the feed's bytes as they
 * are. Vary says so to caches.
 */
export async function forReader(request: Request, response: Response): Promise<Response> {
  const out = fromBrowser(request) && response.status === 200 ? feedPage(await response.text(), response.headers) : new Response(response.body, response);
  out.headers.append("Vary", "Accept");
  return out;
}
