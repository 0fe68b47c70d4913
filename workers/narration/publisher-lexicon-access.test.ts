import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminHeaders, apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { issuePublisherKey } from "../kernel/publisher-keys";

/**
 * Who may manage a publisher's lexicon (docs/narration-api.md "Pronunciation lexicon"): that
 * publisher's key, the operator's API key, and the admin token, as on every admin route (issue 31).
 * Everyone else is refused before anything is read or written: a wrong token is a 401, another
 * publisher's key a 404, and the lexicon is as it was.
 */

const PUBLISHER = "Coast Weekly";
const base = `/v1/publishers/${encodeURIComponent(PUBLISHER)}/lexicon`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const pls = (grapheme: string, alias: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en"><lexeme><grapheme>${grapheme}</grapheme><alias>${alias}</alias></lexeme></lexicon>`;

let ipSeq = 0;

/**
 * Every route of a publisher's lexicon, as a request with `headers`, all from one new address: the
 * routes share the admin paths' budget of 30 a minute, and only the credential may fail here.
 */
function everyRoute(headers: Record<string, string>): [string, () => Promise<Response>][] {
  const ip = `198.51.100.${++ipSeq}`;
  return [
    ["GET entries", () => call(`${base}/entries`, { headers, ip })],
    ["PUT entries", () => call(`${base}/entries`, { ...jsonBody("PUT", { entries: [{ grapheme: "Forged", alias: "forged" }] }, headers), ip })],
    ["DELETE entries", () => call(`${base}/entries?grapheme=SQL`, { method: "DELETE", headers, ip })],
    ["POST import (JSON)", () => call(`${base}/import`, { ...jsonBody("POST", { pls: pls("Forged", "forged"), replace: true }, headers), ip })],
    [
      "POST import (PLS)",
      () =>
        call(`${base}/import?replace=true`, {
          method: "POST",
          body: pls("Forged", "forged"),
          headers: { ...headers, "content-type": "application/pls+xml" },
          ip,
        }),
    ],
    ["GET affected", () => call(`${base}/affected`, { headers, ip })],
    ["POST rerender", () => call(`${base}/rerender`, { method: "POST", headers, ip })],
  ];
}

/** The publisher's lexicon as stored, read with the operator's key. */
async function lexicon(): Promise<unknown> {
  return (await call(`${base}/entries`, { headers: apiKeyHeaders })).json();
}

describe("a publisher's lexicon and the admin token", () => {
  it("serves every route to the admin token (x-service-email-token), the legacy intake token too", async () => {
    const put = await call(`${base}/entries`, jsonBody("PUT", { entries: [{ grapheme: "SQL", alias: "sequel" }] }, adminHeaders));
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ publisher: PUBLISHER, entries: [{ grapheme: "SQL", phoneme: null, alias: "sequel" }] });
    for (const [name, send] of everyRoute(adminHeaders)) expect((await send()).status, name).toBeLessThan(300);
    const legacy = { "x-service-email-token": testVars.LEGACY_INTAKE_TOKEN };
    expect((await call(`${base}/entries`, { headers: legacy })).status).toBe(200);
  });

  it("refuses a wrong admin token, a wrong key and none with 401 on every route, and changes nothing", async () => {
    await call(`${base}/entries`, jsonBody("PUT", { entries: [{ grapheme: "SQL", alias: "sequel" }] }, apiKeyHeaders));
    const before = await lexicon();
    const attempts: Record<string, string>[] = [
      { "x-service-email-token": "not-the-admin-token" },
      { "x-service-email-token": `${testVars.ADMIN_TOKEN}x` },
      { "x-service-key": "not-the-key" },
      bearer("npk_forged_key"),
      {},
    ];
    for (const headers of attempts) {
      for (const [name, send] of everyRoute(headers)) expect((await send()).status, `${name} ${JSON.stringify(headers)}`).toBe(401);
    }
    expect(await lexicon()).toEqual(before);
  });

  it("is a 404 to another publisher's key on every route, with or without a wrong admin token beside it, and changes nothing", async () => {
    const { key: otherKey } = await issuePublisherKey(env, "Inland Daily");
    await call(`${base}/entries`, jsonBody("PUT", { entries: [{ grapheme: "SQL", alias: "sequel" }] }, apiKeyHeaders));
    const before = await lexicon();
    for (const headers of [bearer(otherKey), { ...bearer(otherKey), "x-service-email-token": "not-the-admin-token" }]) {
      for (const [name, send] of everyRoute(headers)) expect((await send()).status, name).toBe(404);
    }
    expect(await lexicon()).toEqual(before);
    // Its own lexicon, meanwhile, is its own.
    const own = `/v1/publishers/${encodeURIComponent("Inland Daily")}/lexicon/entries`;
    expect((await call(own, jsonBody("PUT", { entries: [{ grapheme: "SQL", alias: "ess queue ell" }] }, bearer(otherKey)))).status).toBe(200);
    expect(await lexicon()).toEqual(before);
  });
});

describe("a PLS document as the import's body", () => {
  const importRaw = (body: BodyInit, type: string, query = "") =>
    call(`${base}/import${query}`, { method: "POST", body, headers: { ...apiKeyHeaders, "content-type": type } });

  it("takes application/pls+xml and application/xml as they are, merged or, with ?replace=true, in place of the lexicon", async () => {
    expect((await importRaw(pls("SQL", "sequel"), "application/pls+xml")).status).toBe(200);
    const merged = await importRaw(pls("Nguyen", "Win"), "application/xml; charset=utf-8");
    expect(merged.status).toBe(200);
    expect((await merged.json<{ entries: unknown[] }>()).entries).toHaveLength(2);
    const replaced = await importRaw(pls("Nguyen", "Nwen"), "application/pls+xml", "?replace=true");
    expect(await replaced.json()).toEqual({ publisher: PUBLISHER, entries: [{ grapheme: "Nguyen", phoneme: null, alias: "Nwen" }] });
    // The global import takes it too, with the admin token.
    const global = await call("/v1/lexicon/import", {
      method: "POST",
      body: pls("SQL", "sequel"),
      headers: { ...adminHeaders, "content-type": "application/pls+xml" },
    });
    expect(global.status).toBe(200);
    expect(await global.json()).toEqual({ publisher: null, entries: [{ grapheme: "SQL", phoneme: null, alias: "sequel" }] });
  });

  it("refuses a document that is not PLS, bytes that are not UTF-8 and a body past the API's limit, changing nothing", async () => {
    await importRaw(pls("SQL", "sequel"), "application/pls+xml");
    const before = await lexicon();
    const notPls = await importRaw("<html><body>hi</body></html>", "application/xml");
    expect(notPls.status).toBe(422);
    expect(await notPls.json()).toMatchObject({ detail: [{ loc: ["body", "pls"], type: "pls_invalid" }] });
    const latin1 = new Uint8Array([...new TextEncoder().encode(pls("Caf", "x").replace("Caf", "Caf\u0000"))].map((b) => (b === 0 ? 0xe9 : b)));
    expect((await importRaw(latin1, "application/pls+xml")).status).toBe(422);
    // docs/api-conventions.md: bodies are limited to 2 MiB.
    expect((await importRaw(" ".repeat(2 * 1024 * 1024 + 1), "application/pls+xml")).status).toBe(413);
    // Any other type is read as the JSON form, which a bare document is not.
    expect((await importRaw(pls("Other", "other"), "text/plain")).status).toBe(422);
    expect((await importRaw(pls("Other", "other"), "application/pls+xml", "?replace=maybe")).status).toBe(422);
    expect(await lexicon()).toEqual(before);
  });
});
