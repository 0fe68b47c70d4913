import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { TokenParams } from "../../kernel/fields";
import { articleUrlField } from "../../kernel/web-url";
import { PAGE_LIMITS } from "../link-page";
import { addLink, LINKS_PER_DAY } from "../links";

const LinkRequest = named(
  "LinkRequest",
  v.object({ url: articleUrlField("The page to narrate (http or https). The service fetches it and keeps the article it finds there.") }),
);

const LinkAccepted = named(
  "LinkAccepted",
  v.object({
    slug: v.pipe(v.string(), v.description("The article made from the page, listener_private to this listener.")),
    job_id: v.pipe(
      v.nullable(v.string()),
      v.description("The render job started for it; for a link already added, its latest job (null only if it never had one)."),
    ),
  }),
);

/** POST /v1/listeners/{token}/links: a page by its address, narrated into the listener's private feed (docs/listeners.md "Add a link"). */
export const postLink = route({
  method: "POST",
  path: "/v1/listeners/:token/links",
  tag: "articles",
  summary: "Add a web page by its link: the article is fetched, narrated and put in the listener's private feed",
  description:
    `The page is fetched from a public address (at most ${PAGE_LIMITS.maxRedirects} redirects, each checked again; at most ` +
    `${PAGE_LIMITS.maxBytes / 1024 / 1024} MB; ${PAGE_LIMITS.timeoutMs / 1000} s; HTML or plain text), its article taken out of it ` +
    "(Mozilla's Readability), and stored as a listener_private article whose url is the page's (canonical) address, rendered " +
    "at high priority. The same link again answers the same slug and starts nothing. 422 names why a page cannot be used: " +
    "`fetch_address`, `fetch_scheme`, `fetch_redirect`, `fetch_status`, `fetch_type`, `fetch_too_large`, `fetch_timeout`, `fetch_network`, " +
    `\`no_article\`, \`opted_out\` (X-Robots-Tag or a robots meta of noai), or \`quota\` (${LINKS_PER_DAY} links a day).`,
  auth: "listener_token",
  rateLimit: "forward",
  params: TokenParams,
  body: LinkRequest,
  responses: {
    202: { description: "The article exists and its narration is queued (or was already added)", schema: LinkAccepted },
    404: { description: "Unknown listener token" },
    429: { description: "The address's hourly budget is spent", headers: { "Retry-After": "seconds" } },
  },
  async handle({ listener, env, ctx, body }) {
    const { article, job } = await addLink(env, ctx, listener, new URL(body.url));
    return Response.json(
      { slug: article.slug, job_id: job?.id ?? null },
      { status: 202, headers: { "Cache-Control": "no-store", Location: `/v1/articles/${article.slug}/audio` } },
    );
  },
});
