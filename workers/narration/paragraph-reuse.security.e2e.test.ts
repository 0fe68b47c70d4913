import { describe, expect, it } from "vitest";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { pollJob, publishSigned as publish } from "../../test/support/publish";

/**
 * Issue 40 item 3, as the attack: a publisher's key renders a guessed paragraph and reads the job's
 * counters, to learn whether another publisher's paywalled article holds it. Through the whole path
 * (signed publish → queue → render Worker → job view). What must not happen: the guess reads as reused,
 * or as cached, or costs fewer characters than a paragraph nobody has.
 */

const SECRET = "The merger closes on Friday at a price of forty-one dollars a share.";

async function publisherKey(publisher: string): Promise<Record<string, string>> {
  const res = await call(`/v1/admin/publishers/${encodeURIComponent(publisher)}/keys`, jsonBody("POST", {}, adminHeaders));
  expect(res.status).toBe(201);
  return { authorization: `Bearer ${(await res.json<{ key: string }>()).key}` };
}

describe("stored audio is reused only within the tenant whose text it is", () => {
  it("another publisher's raw job of a paragraph of a paywalled article reads nothing reused; its own re-render does", async () => {
    const paywalled = { title: "Deal talk", publisher: "Paywall Times", vertical: "markets", visibility: "publisher_only" };
    const published = await (await publish({ ...paywalled, body_text: `${SECRET}\n\nShareholders vote next month.` })).json<{ job_id: string }>();
    expect(await pollJob(published.job_id)).toMatchObject({ state: "done" });

    const attacker = await publisherKey("Rival Post");
    const guess = await call("/v1/jobs", jsonBody("POST", { text: SECRET }, attacker));
    expect(guess.status).toBe(202);
    const probed = await pollJob((await guess.json<{ id: string }>()).id);
    expect(probed).toMatchObject({ state: "done", paragraphs_reused: 0, characters_synthesized: SECRET.length });

    // Rendered synchronously, the guess is not "cached" either.
    const now = await call("/v1/render", jsonBody("POST", { text: `${SECRET}\n\nShareholders vote next month.` }, attacker));
    expect(now.status).toBe(200);
    expect(await now.json()).toMatchObject({ cached: false });

    // Within one tenant, reuse still works: the paywalled publisher's own raw job of its paragraph reuses it.
    const own = await call("/v1/jobs", jsonBody("POST", { text: SECRET }, await publisherKey("Paywall Times")));
    expect(await pollJob((await own.json<{ id: string }>()).id)).toMatchObject({ state: "done", paragraphs_reused: 1, characters_synthesized: 0 });
  });
});
