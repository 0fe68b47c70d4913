import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testVars } from "../../test/vars";
import { authorizationRequest, discover, open, REDIRECT, register } from "../../test/support/oauth-agent";

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25) outside development: the tests' WEB_URL
 * (https://web.test) is not this machine, so a document is only ever fetched from a public host, without
 * redirects. Each attack names a document on this machine or a private network, and must be refused on
 * the page (400, never redirected) before any request leaves the Worker. The whole flow with a document
 * served on loopback, in development, is test-browser/oauth-consent.test.mjs.
 */

afterEach(() => vi.restoreAllMocks());

/** The authorization page for a client whose client_id is `clientId`, and what it fetched meanwhile. */
async function authorizeAs(clientId: string) {
  const as = await discover();
  const fetched: string[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return real(input, init);
  });
  const auth = await authorizationRequest(as, { client_id: clientId, token_endpoint_auth_method: "none" }, REDIRECT, "articles:read");
  const res = await open(auth.url);
  vi.restoreAllMocks();
  return { res, html: await res.text(), fetched: fetched.filter((u) => !u.startsWith(testVars.WEB_URL) && !u.startsWith(testVars.BASE_URL)) };
}

describe("authorization server metadata (RFC 8414)", () => {
  it("advertises client_id_metadata_document_supported, and dynamic registration stays", async () => {
    const as = await discover();
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.registration_endpoint).toBe(`${testVars.WEB_URL}/oauth/register`);
  });

  it("adds the member to the metadata only: a registration's answer is left as the provider made it", async () => {
    const client = await register(await discover(), REDIRECT);
    expect(client).not.toHaveProperty("client_id_metadata_document_supported");
  });
});

describe("a metadata document on this machine or a private network is refused outside development (SSRF)", () => {
  it.each([
    ["loopback address", "https://127.0.0.1/client.json"],
    ["loopback, another port", "https://127.0.0.1:8443/client.json"],
    ["loopback in decimal", "https://2130706433/client.json"],
    ["loopback in hex", "https://0x7f.0.0.1/client.json"],
    ["IPv6 loopback", "https://[::1]/client.json"],
    ["IPv4-mapped IPv6", "https://[::ffff:127.0.0.1]/client.json"],
    ["localhost", "https://localhost/client.json"],
    ["a .localhost name", "https://agent.localhost/client.json"],
    ["a private range (10/8)", "https://10.1.2.3/client.json"],
    ["a private range (192.168/16)", "https://192.168.0.10/client.json"],
    ["link-local cloud metadata", "https://169.254.169.254/latest/meta-data"],
    ["an mDNS name", "https://printer.local/client.json"],
    ["a single-label name", "https://intranet/client.json"],
    ["an .internal name", "https://metadata.google.internal/client.json"],
  ])("%s: %s", async (_what, clientId) => {
    const { res, html, fetched } = await authorizeAs(clientId);
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
    expect(html).toContain("client metadata document cannot be used");
    expect(html).toContain("is not a public host");
    expect(fetched).toEqual([]);
  });

  it("takes no http client_id outside development: an unknown client, refused on the page", async () => {
    const { res, fetched } = await authorizeAs("http://127.0.0.1:9/client.json");
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
    expect(fetched).toEqual([]);
  });

  it("stores nothing for a refused document: no client record appears", async () => {
    await authorizeAs("https://10.0.0.7/client.json");
    expect(await env.OAUTH_KV.get("client:https://10.0.0.7/client.json")).toBeNull();
  });
});
