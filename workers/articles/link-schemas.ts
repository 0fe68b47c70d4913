import * as v from "valibot";
import { named } from "../core/schema-registry";
import { articleUrlField } from "../kernel/web-url";
import { PAGE_LIMITS } from "./link-page";
import { type AddedLink, LINKS_PER_DAY } from "./links";

/**
 * The one shape of "add a link", shared by the listener's operation (POST /v1/listeners/{token}/links)
 * and the agent's (POST /v1/agent/links, OAuth scope links:write): same body, same answer, same refusals.
 */

export const LinkRequest = named(
  "LinkRequest",
  v.object({ url: articleUrlField("The page to narrate (http or https). The service fetches it and keeps the article it finds there.") }),
);

export const LinkAccepted = named(
  "LinkAccepted",
  v.object({
    slug: v.pipe(v.string(), v.description("The article made from the page, listener_private to this listener.")),
    job_id: v.pipe(
      v.nullable(v.string()),
      v.description("The render job started for it; for a link already added, its latest job (null only if it never had one)."),
    ),
  }),
);

export const LINK_DESCRIPTION =
  `The page is fetched from a public address (at most ${PAGE_LIMITS.maxRedirects} redirects, each checked again; at most ` +
  `${PAGE_LIMITS.maxBytes / 1024 / 1024} MB; ${PAGE_LIMITS.timeoutMs / 1000} s; HTML or plain text), its article taken out of it ` +
  "(Mozilla's Readability), and stored as a listener_private article whose url is the page's (canonical) address, rendered " +
  "at high priority. The same link again answers the same slug and starts nothing. 422 names why a page cannot be used: " +
  "`fetch_address`, `fetch_scheme`, `fetch_redirect`, `fetch_status`, `fetch_type`, `fetch_too_large`, `fetch_timeout`, `fetch_network`, " +
  `\`no_article\`, \`opted_out\` (X-Robots-Tag or a robots meta of noai), or \`quota\` (${LINKS_PER_DAY} links a day).`;

/** The 202 of an added link: the article's slug and its render job, and where its audio will be. */
export function linkAccepted({ article, job }: AddedLink): Response {
  return Response.json(
    { slug: article.slug, job_id: job?.id ?? null },
    { status: 202, headers: { "Cache-Control": "no-store", Location: `/v1/articles/${article.slug}/audio` } },
  );
}
