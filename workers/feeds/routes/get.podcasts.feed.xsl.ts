import { route } from "../../core/route";
import { FEED_STYLESHEET_PATH } from "../../kernel/public-urls";
import { FEED_STYLESHEET } from "../feed-stylesheet";
import { FEED_METHODS } from "../schemas";

/** XSLT's registered media type (XSLT 2.0, Appendix B.1); browsers take it as XML. */
const XSLT_CONTENT_TYPE = "application/xslt+xml; charset=utf-8";

export const getFeedStylesheet = route({
  method: FEED_METHODS,
  path: FEED_STYLESHEET_PATH,
  tag: "feeds",
  summary: "The XSL stylesheet every feed names, so a feed URL opened in a browser shows a page with subscribe buttons",
  description:
    "Podcast apps ignore it and read the RSS; a browser turns the feed into a page that says what it is, offers the podcast apps' subscribe links and lists the episodes.",
  auth: "none",
  rateLimit: "feeds",
  responses: { 200: { description: "The XSLT 1.0 stylesheet", contentType: XSLT_CONTENT_TYPE } },
  handle: () => new Response(FEED_STYLESHEET, { headers: { "Content-Type": XSLT_CONTENT_TYPE, "Cache-Control": "public, max-age=3600" } }),
});
