import { sitemap } from "../sitemap";
import { page } from "../page-route";

/** GET {WEB_URL}/sitemap.xml: every public article page, for search engines. */
export const getSitemap = page({
  method: "GET",
  path: "/sitemap.xml",
  summary: "The sitemap of the public article pages",
  auth: "none",
  handle: ({ env }) => sitemap(env),
});
