import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { jsonBody } from "../../test/support/client";
import { DEVELOPMENT, sitePage } from "../../test/support/links-site";
import { callWith } from "../../test/support/narration";
import { tokensFor } from "../../test/support/oauth-agent";

/**
 * An agent adds a page by its link for the listener who granted it links:write (issue 45 item 1), on
 * the REST agent surface, against the loopback test site (scripts/links-site.mjs). The scope is the
 * whole of the permission: no other scope adds a link, and the article is the granting listener's.
 */

function addLinkAs(accessToken: string | null, url: string): Promise<Response> {
  const init = jsonBody("POST", { url });
  const headers = new Headers(init.headers);
  if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
  // Tokens are issued for BASE_URL (their audience); WEB_URL on this machine lets the fetcher reach the loopback site.
  return callWith(null, "/v1/agent/links", { ...init, headers }, { WEB_URL: DEVELOPMENT.WEB_URL });
}

async function privateArticlesOf(email: string): Promise<{ slug: string; url: string; language: string }[]> {
  const { results } = await env.DB.prepare(
    "SELECT a.slug, a.url, a.language FROM articles a JOIN listeners l ON l.id = a.owner_listener_id WHERE l.email = ? AND a.visibility = 'listener_private'",
  )
    .bind(email)
    .all<{ slug: string; url: string; language: string }>();
  return results;
}

describe("POST /v1/agent/links", () => {
  it("narrates the page into the granting listener's private feed, once however often it is sent", async () => {
    const { tokens } = await tokensFor("agent-links@example.com", "links:write");
    const res = await addLinkAs(tokens.access_token, sitePage("/blog/briefe"));
    expect(res.status).toBe(202);
    const { slug, job_id } = await res.json<{ slug: string; job_id: string }>();
    expect(job_id).toEqual(expect.any(String));
    expect(await privateArticlesOf("agent-links@example.com")).toEqual([{ slug, url: sitePage("/blog/briefe"), language: "de" }]);
    const again = await addLinkAs(tokens.access_token, sitePage("/blog/briefe"));
    expect(await again.json()).toEqual({ slug, job_id });
  });

  it("refuses a token the listener granted other scopes, and adds nothing", async () => {
    const { tokens } = await tokensFor("agent-links-reader@example.com", "articles:read subscriptions:write digest:run");
    const res = await addLinkAs(tokens.access_token, sitePage("/blog/briefe"));
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/error="insufficient_scope", scope="links:write"/);
    expect(await privateArticlesOf("agent-links-reader@example.com")).toEqual([]);
  });

  it("is 401 with the protected-resource challenge without a token or with a forged one", async () => {
    for (const token of [null, "forged:token:value"]) {
      const res = await addLinkAs(token, sitePage("/blog/briefe"));
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/resource_metadata="/);
    }
  });

  it("fetches through the same guarded fetcher: a redirect to a private address is refused with its reason", async () => {
    const { tokens } = await tokensFor("agent-links-attack@example.com", "links:write");
    const res = await addLinkAs(tokens.access_token, sitePage("/to-private"));
    expect(res.status).toBe(422);
    expect((await res.json<{ detail: { type: string }[] }>()).detail[0].type).toBe("fetch_address");
    expect(await privateArticlesOf("agent-links-attack@example.com")).toEqual([]);
  });
});
