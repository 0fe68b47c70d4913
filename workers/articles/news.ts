import * as v from "valibot";
import { config } from "../core/config";

/** An external news result offered as a discovery hint (docs/rules.md "Rules" 4, search rule 1); never stored. */
export interface NewsSuggestion {
  title: string;
  url: string;
  source: string;
  published_at: string | null;
}

export type NewsResult = { ok: true; provider: string; items: NewsSuggestion[] } | { ok: false; provider: string; reason: "unreachable" | "upstream_error" };

const TIMEOUT_MS = 3000;

const NewsApiBody = v.object({
  articles: v.array(
    v.object({ title: v.string(), url: v.string(), publishedAt: v.optional(v.nullable(v.string())), source: v.object({ name: v.nullable(v.string()) }) }),
  ),
});

const GdeltBody = v.object({
  articles: v.optional(v.array(v.object({ title: v.string(), url: v.string(), domain: v.string(), seendate: v.optional(v.string()) })), []),
});

/** GDELT dates look like 20261121T114500Z. */
function gdeltDate(s: string | undefined): string | null {
  const m = s && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : null;
}

interface Adapter {
  name: string;
  request(q: string, limit: number): Request;
  parse(json: unknown): NewsSuggestion[];
}

function newsApi(key: string): Adapter {
  return {
    name: "newsapi",
    request: (q, limit) =>
      new Request(`https://newsapi.org/v2/everything?${new URLSearchParams({ q, pageSize: String(limit), sortBy: "publishedAt" })}`, {
        headers: { "X-Api-Key": key, "User-Agent": "narration-platform" },
      }),
    parse: (json) =>
      v.parse(NewsApiBody, json).articles.map((a) => ({ title: a.title, url: a.url, source: a.source.name ?? "", published_at: a.publishedAt ?? null })),
  };
}

/** The keyless default: the GDELT 2.0 DOC API's article list. */
const gdelt: Adapter = {
  name: "gdelt",
  request: (q, limit) =>
    new Request(
      `https://api.gdeltproject.org/api/v2/doc/doc?${new URLSearchParams({ query: q, mode: "ArtList", format: "json", maxrecords: String(limit), sort: "DateDesc" })}`,
    ),
  parse: (json) => v.parse(GdeltBody, json).articles.map((a) => ({ title: a.title, url: a.url, source: a.domain, published_at: gdeltDate(a.seendate) })),
};

/** True when NEWS_PROVIDER names a provider: suggestions are on. */
export function newsConfigured(env: object): boolean {
  return config(env).NEWS_PROVIDER !== "off";
}

/**
 * External news for `q` from the NEWS_PROVIDER; null when suggestions are off. Failures are
 * values: the caller marks its response degraded instead of failing the search.
 */
export async function fetchNews(env: object, q: string, limit: number, fetcher: typeof fetch = fetch): Promise<NewsResult | null> {
  const c = config(env);
  if (c.NEWS_PROVIDER === "off") return null;
  const adapter = c.NEWS_PROVIDER === "newsapi" ? newsApi(c.NEWS_API_KEY) : gdelt;
  let response: Response;
  try {
    response = await fetcher(adapter.request(q, limit), { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    return { ok: false, provider: adapter.name, reason: "unreachable" };
  }
  if (!response.ok) return { ok: false, provider: adapter.name, reason: "upstream_error" };
  try {
    return { ok: true, provider: adapter.name, items: adapter.parse(await response.json()).slice(0, limit) };
  } catch {
    return { ok: false, provider: adapter.name, reason: "upstream_error" };
  }
}
