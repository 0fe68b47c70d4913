import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { database } from "../../db/index";
import { recentArticleBySlug } from "../../kernel/article-by-slug";
import { ArticleRecord, NOINDEX, presentRecord } from "../present";
import { ListenerTokenParam, viewer } from "../viewer";
import { openableBy } from "../../kernel/visibility";

export const getArticle = route({
  method: "GET",
  path: "/v1/articles/:slug",
  tag: "articles",
  summary: "One article: the full record, or a thin noindex stub",
  description:
    "publisher_only articles are stubs (no summary, body_text or audio_url: their text and audio reach only their publisher and the operator). A listener_private article exists only for the listener who forwarded it: " +
    "pass their token as listener_token (query) or x-listener-token (header); anyone else gets 404. Stubs carry X-Robots-Tag: noindex.",
  auth: "none",
  rateLimit: "read",
  params: v.object({ slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) }),
  query: v.object({ listener_token: v.optional(ListenerTokenParam) }),
  headers: v.object({ "x-listener-token": v.optional(ListenerTokenParam) }),
  responses: {
    200: { description: "The article", schema: ArticleRecord, headers: { "X-Robots-Tag": "noindex on stubs" } },
    404: { description: "No such article, or a listener_private article of someone else" },
  },
  async handle({ env, params, query, headers }) {
    const db = database(env);
    const token = query.listener_token ?? headers["x-listener-token"];
    const [row, listener] = await Promise.all([recentArticleBySlug(db, params.slug), viewer(db, token)]);
    // A private article of someone else answers exactly like a missing one (docs/articles.md "Visibility": 404, not 403).
    if (!row || !openableBy(row, listener?.id ?? null)) throw new ApiError("not_found", `no article ${params.slug}`);
    const body = presentRecord(env, row, listener?.id ?? null);
    const headersOut: Record<string, string> = {
      "Cache-Control": token ? "private, no-store" : "public, max-age=60",
      ...(body.noindex ? NOINDEX : {}),
    };
    return Response.json(body, { headers: headersOut });
  },
});
