import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientMetadataError, keepAllowedClient, resolveClientMetadataDocument } from "./client-metadata";

/**
 * What the client-metadata fetcher takes from a public host (issue 46): the document at its own URL
 * (no redirect followed), at most 5120 bytes (the limit the provider sets for documents, written out
 * here), and only with client_id equal to that URL. Each refusal is asserted by what it prevents: no
 * client record for the provider, and for a redirect, no request to where it points. Planted bugs these
 * catch: redirects followed, a ten times larger bound, the client_id check left out. The host is served
 * by a spy on fetch, at the network boundary (the tests' WEB_URL is not this machine, so the private
 * host refusals of client-metadata.test.ts hold and this public name is fetched).
 */

afterEach(() => vi.restoreAllMocks());

const CLIENT_ID = "https://agent.example.com/oauth/client.json";

function document(clientId = CLIENT_ID, padding = 0) {
  return JSON.stringify({ client_id: clientId, client_name: `Agent${" ".repeat(padding)}`, redirect_uris: ["https://agent.example.com/callback"] });
}

/** Serves `answer` for every outside request; returns the URLs asked for. */
function serve(answer: (url: string) => Response) {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(url);
    return answer(url);
  });
  return asked;
}

const json = (body: string) => new Response(body, { headers: { "Content-Type": "application/json" } });
const storedClient = async (clientId = CLIENT_ID) => env.OAUTH_KV.get(`client:${clientId}`);

/** A document of exactly `bytes` bytes (ASCII), its client_name padded. */
function documentOf(bytes: number) {
  const body = document(CLIENT_ID, bytes - document().length);
  expect(new TextEncoder().encode(body).length).toBe(bytes);
  return body;
}

describe("the client metadata document fetcher", () => {
  it("takes a valid document at its own URL and stores the client", async () => {
    const asked = serve(() => json(document()));
    await resolveClientMetadataDocument(env, CLIENT_ID);
    expect(asked).toEqual([CLIENT_ID]);
    expect(JSON.parse((await storedClient())!)).toMatchObject({ clientId: CLIENT_ID, redirectUris: ["https://agent.example.com/callback"] });
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`follows no redirect (${status}): the target is never asked and no client is stored`, async () => {
      const target = "https://elsewhere.example.com/client.json";
      const asked = serve((url) => (url === CLIENT_ID ? new Response(null, { status, headers: { Location: target } }) : json(document())));
      await expect(resolveClientMetadataDocument(env, CLIENT_ID)).rejects.toBeInstanceOf(ClientMetadataError);
      expect(asked).toEqual([CLIENT_ID]);
      expect(await storedClient()).toBeNull();
    });
  }

  it("takes a document of exactly 5120 bytes", async () => {
    serve(() => json(documentOf(5120)));
    await resolveClientMetadataDocument(env, CLIENT_ID);
    expect(await storedClient()).not.toBeNull();
  });

  it("refuses a document of 5121 bytes, and one of ten times that, storing no client", async () => {
    for (const bytes of [5121, 51_200]) {
      serve(() => json(documentOf(bytes)));
      await expect(resolveClientMetadataDocument(env, CLIENT_ID), `${bytes} bytes`).rejects.toBeInstanceOf(ClientMetadataError);
      expect(await storedClient(), `${bytes} bytes`).toBeNull();
      vi.restoreAllMocks();
    }
  });

  it("refuses a document whose client_id is not its own URL: neither URL gets a client", async () => {
    const other = "https://victim.example.com/oauth/client.json";
    for (const clientId of [other, `${CLIENT_ID}?x=1`, CLIENT_ID.toUpperCase().replace("HTTPS://", "https://")]) {
      serve(() => json(document(clientId)));
      await expect(resolveClientMetadataDocument(env, CLIENT_ID), clientId).rejects.toBeInstanceOf(ClientMetadataError);
      expect(await storedClient(), clientId).toBeNull();
      expect(await storedClient(clientId), clientId).toBeNull();
      vi.restoreAllMocks();
    }
  });
});

describe("documents fetched for nobody in particular are not kept for ever (issue 40 item 13)", () => {
  it("an authorization page opened by anyone keeps the client a day at most; once a listener allows it, for good", async () => {
    // The attack: open authorization pages naming documents at many URLs, signed in or not, so the server keeps them all.
    serve(() => json(document()));
    await resolveClientMetadataDocument(env, CLIENT_ID);
    const [kept] = (await env.OAUTH_KV.list({ prefix: `client:${CLIENT_ID}` })).keys;
    expect(kept.expiration).toBeGreaterThan(Date.now() / 1000);
    expect(kept.expiration).toBeLessThanOrEqual(Date.now() / 1000 + 86_400);

    await keepAllowedClient(env, CLIENT_ID);
    const [allowed] = (await env.OAUTH_KV.list({ prefix: `client:${CLIENT_ID}` })).keys;
    expect(allowed.expiration).toBeUndefined();
    // Fetched again past its freshness, an allowed client's record still does not lapse.
    await env.OAUTH_KV.delete(`cimd-fresh:${CLIENT_ID}`);
    await resolveClientMetadataDocument(env, CLIENT_ID);
    expect((await env.OAUTH_KV.list({ prefix: `client:${CLIENT_ID}` })).keys[0].expiration).toBeUndefined();
  });
});
