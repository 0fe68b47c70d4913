import * as v from "valibot";
import { FORWARDS_PER_HOUR_PER_ADDRESS } from "../../core/rate-limit";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database } from "../../db/index";
import { TokenParams } from "../../kernel/fields";
import { articleUrlField } from "../../kernel/web-url";
import { FORWARDED_VERTICAL, forwardArticle, MAX_TEXT, MAX_TITLE, publisherOf } from "../forward";
import { ArticleRecord, NOINDEX, presentRecord } from "../present";

const ForwardRequest = named(
  "ForwardRequest",
  v.pipe(
    v.object({
      url: v.optional(articleUrlField("The article's address (http or https). Not fetched: the service stores only what this body carries.")),
      title: v.optional(v.pipe(v.string(), v.maxLength(MAX_TITLE), v.description("Defaults to the URL."))),
      text: v.optional(v.pipe(v.string(), v.maxLength(MAX_TEXT), v.description("The article text to narrate; defaults to the title."))),
      publisher: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Defaults to the URL's host."))),
      vertical: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(80), v.description(`Topic slug; defaults to ${FORWARDED_VERTICAL}.`))),
    }),
    v.check((b) => Boolean(b.url || b.text?.trim()), "give at least url or text"),
  ),
);

export const postForward = route({
  method: "POST",
  path: "/v1/listeners/:token/forward",
  tag: "articles",
  summary: "Forward an article into the listener's own archive (listener_private, renderable with render-now)",
  description:
    `Each forward stores up to ${MAX_TEXT} characters, so an address may forward ${FORWARDS_PER_HOUR_PER_ADDRESS} articles an hour ` +
    "(429 with Retry-After beyond that; a repeat of a URL already forwarded counts too).",
  auth: "listener_token",
  rateLimit: "forward",
  params: TokenParams,
  body: ForwardRequest,
  responses: {
    201: { description: "Added", schema: ArticleRecord },
    200: { description: "This URL was already forwarded by the listener", schema: ArticleRecord },
    404: { description: "Unknown listener token" },
    429: { description: "The address's hourly forward budget is spent", headers: { "Retry-After": "seconds" } },
  },
  async handle({ listener, env, body }) {
    const db = database(env);
    const { article, created } = await forwardArticle(db, listener, {
      title: body.title ?? "",
      text: body.text ?? "",
      url: body.url ?? null,
      publisher: body.publisher ?? publisherOf(body.url ?? null, "forwarded"),
      vertical: body.vertical ?? FORWARDED_VERTICAL,
    });
    return Response.json(presentRecord(env, article, listener.id), {
      status: created ? 201 : 200,
      headers: { ...NOINDEX, "Cache-Control": "no-store", Location: `/v1/articles/${article.slug}` },
    });
  },
});
