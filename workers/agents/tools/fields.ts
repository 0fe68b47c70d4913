import * as v from "valibot";
import { AgentVerticalField } from "../verticals";

/** Field schemas shared by the tools, their REST operations and the manifests. */

export const SlugField = v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Article slug, as search_articles and digest return it."));

export const VerticalsField = v.pipe(
  v.array(AgentVerticalField),
  v.minLength(1),
  v.maxLength(6),
  v.description("Topics, each one of tech, finance, science, media, sports, culture."),
);

/** The article fields every listing of the tools carries. */
export const ArticleListing = v.object({
  slug: v.pipe(v.string(), v.description("Identifies the article: pass it to get_article or get_audio_url.")),
  title: v.string(),
  publisher: v.string(),
  vertical: v.pipe(v.string(), v.description("Topic slug.")),
  audio_url: v.pipe(v.nullable(v.string()), v.description("MP3 of the narration, or null until it is rendered.")),
  listen_seconds: v.pipe(v.nullable(v.number()), v.description("Length of the narration in seconds, when rendered.")),
});
