import type { SQL } from "drizzle-orm";
import type { Listener } from "../kernel/listener-tokens";
import { privateEpisodes, privateFeedItems } from "./feed-items";
import { feedUnavailable } from "../kernel/feed-paths";
import { itemFileUrls, privateFeedPath } from "../kernel/public-urls";
import { conditional, entityTag } from "../core/conditional";
import { feedResponse, forReader } from "./feed-response";
import { renderRss } from "./rss";

/**
 * The private per-listener feed. The token in the path is the credential (docs/rules.md "Rules" 5), so:
 * - it is looked up on every request: a rotated or deleted token answers 404 on the next poll;
 * - responses are `private, no-cache` and never enter the edge cache: no shared cache may hand one
 *   listener's feed to another or keep serving a revoked URL; apps revalidate and get 304s;
 * - no copy of the body is kept (a listener's forwarded articles live only in their rows, and a
 *   deleted listener leaves nothing behind), so a failed build answers 503 with Retry-After.
 */

const PRIVATE_HEADERS = {
  "Cache-Control": "private, no-cache",
  // The URL is a secret: keep it out of search indexes and Referer headers.
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
};

/** Answers a GET or HEAD for the private feed of `token`. */
export async function servePrivateFeed(request: Request, env: Env, listener: Listener, token: string): Promise<Response> {
  let xml: string;
  let lastModified: number;
  try {
    const items = await privateFeedItems(env, listener);
    xml = renderRss(
      env,
      {
        title: "My Briefs",
        description: "Your private feed: stories from the verticals you follow and the articles you forwarded, read aloud.",
        author: "Narration Service",
        category: { text: "News", sub: "Daily News" },
        artPrompt: "my briefs",
        path: privateFeedPath(token),
        locked: true,
      },
      items,
      // Transcripts and chapters stay behind the token (GET /v1/podcasts/u/{token}/transcripts/{slug}.vtt and .json, .../chapters/{slug}.json).
      (item) => itemFileUrls(env, item.slug, token),
    );
    // No stored history: the newest change among the items and the subscription stands in for it.
    lastModified = Math.max((listener.updatedAt ?? listener.createdAt).getTime(), ...items.map((i) => Math.max(i.published.getTime(), i.changed.getTime())));
  } catch (err) {
    console.error(`private feed build failed: ${err instanceof Error ? err.name : typeof err}`);
    throw feedUnavailable();
  }
  const body = { xml, etag: await entityTag(xml), lastModified: new Date(lastModified) };
  return forReader(request, conditional(request, feedResponse(body, PRIVATE_HEADERS)));
}

/** A server of one item file (transcript.ts): the file of article `slug` among those `visible` allows. */
type ItemFileServer = (env: Env, slug: string, visible: SQL, headers: Record<string, string>) => Promise<Response>;

/**
 * An item file (a transcript or the chapters) of an episode of the private feed of `listener`: any
 * article that feed carries and nothing else, kept out of shared caches and indexes as the feed is.
 */
export function servePrivateItemFile(serve: ItemFileServer, env: Env, listener: Listener, slug: string): Promise<Response> {
  return serve(env, slug, privateEpisodes(listener), PRIVATE_HEADERS);
}
