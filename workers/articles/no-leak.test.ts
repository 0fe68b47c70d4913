import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { privateArticleOf } from "../../test/support/private-article";
import { trendingArticles } from "../kernel/trending";

/**
 * docs/rules.md "Rules" 2: a listener_private article belongs to the listener who forwarded it and appears
 * in no one else's feed or search. Every public surface of this domain is asked for it, by an
 * anonymous caller and by another listener; none may mention it.
 */
const SECRET = "quokkaprivate";
let owner: Awaited<ReturnType<typeof privateArticleOf>>["owner"];
let other: typeof owner;
let slug: string;

beforeEach(async () => {
  ({ owner, other, slug } = await privateArticleOf(SECRET, "f".repeat(64)));
});

const surfaces = (token: string | null) => {
  const t = token ? `&listener_token=${token}` : "";
  return [
    `/v1/stories/search?q=${SECRET}&expand=false${t}`,
    `/v1/stories/search?q=${SECRET}&expand=false&vertical=tech`,
    `/v1/stories/feed?audio_ready_only=false${t}`,
    `/v1/stories/feed?vertical=tech${t}`,
    `/v1/stories/feed?vertical=trending${t}`,
    `/v1/stories/feed?personalized=true${t}`,
  ];
};

describe("no listener_private leak", () => {
  it("is invisible to anonymous callers on every surface", async () => {
    expect((await call(`/v1/articles/${slug}`)).status).toBe(404);
    for (const path of surfaces(null)) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      // The search body echoes q, so look for what only the article carries: its slug and text.
      expect(text, path).not.toContain(slug);
      expect(text, path).not.toContain(`All about ${SECRET}`);
    }
    expect(JSON.stringify(await trendingArticles(env, { limit: 50 }))).not.toContain(slug);
  });

  it("is invisible to another listener on every surface", async () => {
    expect((await call(`/v1/articles/${slug}?listener_token=${other.token}`)).status).toBe(404);
    expect((await call(`/v1/articles/${slug}`, { headers: { "x-listener-token": other.token } })).status).toBe(404);
    for (const path of surfaces(other.token)) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      // The search body echoes q, so look for what only the article carries: its slug and text.
      expect(text, path).not.toContain(slug);
      expect(text, path).not.toContain(`All about ${SECRET}`);
    }
    expect(JSON.stringify(await trendingArticles(env, { limit: 50, listenerId: other.listener.id }))).not.toContain(slug);
  });

  it("is visible to its owner in the record and their own feeds", async () => {
    expect(await (await call(`/v1/articles/${slug}?listener_token=${owner.token}`)).text()).toContain(`All about ${SECRET}`);
    expect(await (await call(`/v1/stories/feed?listener_token=${owner.token}`)).text()).toContain(slug);
    expect(await (await call(`/v1/stories/feed?vertical=trending&listener_token=${owner.token}`)).text()).toContain(slug);
    expect(await (await call(`/v1/stories/feed?personalized=true&listener_token=${owner.token}`)).text()).toContain(slug);
  });
});
