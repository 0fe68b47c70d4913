import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { call, jsonBody } from "../../test/support/client";
import { tokensFor } from "../../test/support/oauth-agent";

/**
 * Reading a listener's private articles is what articles:read grants (oauth/scopes.ts). An
 * agent holding only digest:run must learn nothing of them through the digest.
 */

async function forwardPrivate(token: string): Promise<string> {
  const res = await call(
    `/v1/listeners/${token}/forward`,
    jsonBody("POST", { url: "https://example.com/okapi", title: "The okapi diagnosis", text: "My okapi test results.", vertical: "tech" }),
  );
  expect(res.status).toBe(201);
  return (await res.json<{ slug: string }>()).slug;
}

function digestAs(accessToken: string) {
  return call("/v1/agent/digest", {
    ...jsonBody("POST", { verticals: ["tech"], window: "30d", limit: 20 }),
    headers: { "content-type": "application/json", Authorization: `Bearer ${accessToken}` },
  });
}

describe("digest with a token holding only digest:run", () => {
  it("shows no title, summary or slug of the listener's private articles", async () => {
    const { tokens, listener } = await tokensFor("digest-only@example.com", "digest:run");
    const slug = await forwardPrivate(listener.token);
    await addArticle({ slug: "public-tech", title: "A public tech story", vertical: "tech" });
    const res = await digestAs(tokens.access_token);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text).articles.map((a: { slug: string }) => a.slug)).toEqual(["public-tech"]);
    expect(text).not.toContain(slug);
    expect(text).not.toContain("okapi");
  });

  it("includes them for a token that also holds articles:read", async () => {
    const { tokens, listener } = await tokensFor("digest-reader@example.com", "articles:read digest:run");
    const slug = await forwardPrivate(listener.token);
    const res = await digestAs(tokens.access_token);
    expect(res.status).toBe(200);
    expect((await res.json<{ articles: { slug: string }[] }>()).articles.map((a) => a.slug)).toContain(slug);
  });
});
