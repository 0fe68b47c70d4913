import { describe, expect, it } from "vitest";
import { adminHeaders, apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { pollJob, publishSigned as publish } from "../../test/support/publish";
import { selfhostedTtsUrl } from "../../test/support/selfhosted-tts";

// Issue 31, "done when": a lexicon entry added through the API changes the next render of an article
// that contains the word and no other. The end-to-end project's render Worker narrates with the
// loopback self-hosted speech server (vitest.config.ts), an engine that takes the entry's alias.

async function publishAndWait(slug: string, bodyText: string) {
  const res = await publish({ slug, title: "Harbour notes", publisher: "Coast Weekly", vertical: "news", body_text: bodyText });
  const { job_id } = await res.json<{ job_id: string }>();
  const job = await pollJob(job_id);
  expect(job).toMatchObject({ state: "done", provider: "selfhosted" });
  return job.audio_key!;
}

/** What the self-hosted server was last asked to say, newest last. */
async function spoken(): Promise<string[]> {
  const { requests } = await (await fetch(`${selfhostedTtsUrl()}/requests`)).json<{ requests: { input: string }[] }>();
  return requests.map((r) => r.input);
}

describe("a lexicon entry added through the API, end to end", () => {
  it("changes the next render of the article that contains the word, and of no other", async () => {
    const named = await publishAndWait("dunes-visit", "Ms Nguyen walked the dunes at dawn.");
    const plain = await publishAndWait("dunes-tide", "The tide came in at noon.");
    expect((await spoken()).some((s) => s.includes("Ms Nguyen walked"))).toBe(true);

    const added = await call("/v1/lexicon/entries", jsonBody("PUT", { entries: [{ grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" }] }, adminHeaders));
    expect(added.status).toBe(200);
    const affected = await (await call("/v1/lexicon/affected", { headers: adminHeaders })).json<{ articles: { slug: string; audio_key: string }[] }>();
    expect(affected.articles).toEqual([expect.objectContaining({ slug: "dunes-visit", audio_key: named, graphemes: ["Nguyen"] })]);

    const rerender = await (await call("/v1/lexicon/rerender", { method: "POST", headers: adminHeaders })).json<{
      queued: { slug: string; job_id: string }[];
    }>();
    expect(rerender.queued.map((q) => q.slug)).toEqual(["dunes-visit"]);
    const again = await pollJob(rerender.queued[0].job_id);
    expect(again).toMatchObject({ state: "done", provider: "selfhosted", voice: "af_heart" });
    expect(again.audio_key).not.toBe(named);
    // The engine was given the alias, not the word.
    const last = (await spoken()).filter((s) => s.includes("walked the dunes")).at(-1);
    expect(last).toContain("Ms Win walked the dunes");
    const audio = await (await call("/v1/articles/dunes-visit/audio")).json<{ audio_url: string }>();
    expect(audio.audio_url).toContain(again.audio_key!);

    // The other article's next render is its audio as it was: same key, nothing of it said anew (counted
    // by its text: tests in the other runner use the same server at once).
    const saidTide = async () => (await spoken()).filter((s) => s.includes("The tide came in")).length;
    const before = await saidTide();
    const job = await (await call("/v1/jobs", jsonBody("POST", { article_slug: "dunes-tide" }, apiKeyHeaders))).json<{ id: string }>();
    expect(await pollJob(job.id)).toMatchObject({ state: "done", audio_key: plain });
    expect(await saidTide()).toBe(before);
    expect((await (await call("/v1/lexicon/affected", { headers: adminHeaders })).json<{ articles: unknown[] }>()).articles).toEqual([]);
  });
});
