import { describe, expect, it } from "vitest";
import { pollJob, publishSigned as publish } from "../../test/support/publish";

// docs/narration.md "Audio by the paragraph", through the whole path: signed publish → queue →
// render Worker → job view, then the same article re-published with one paragraph changed.
describe("a re-published article is re-voiced by the paragraph", () => {
  it("the edit's job view reports the changed paragraph's characters and every other paragraph reused", async () => {
    const body = [
      "The ferry left the harbour at nine, as it does every weekday.",
      "It came back at noon with a deck full of visitors and their bicycles.",
      "The harbour master waved from the end of the pier.",
      "In the afternoon the wind turned and the gulls went inland.",
    ];
    const article = { title: "The noon ferry", publisher: "Coast Weekly", vertical: "news" };
    const first = await (await publish({ ...article, body_text: body.join("\n\n") })).json<{ slug: string; job_id: string }>();
    expect(await pollJob(first.job_id)).toMatchObject({
      state: "done",
      paragraphs_reused: 0,
      characters_synthesized: "The noon ferry.".length + body.join("").length,
    });

    const edited = body.with(1, "It came back at one, half empty, after a storm warning.");
    const again = await (await publish({ ...article, body_text: edited.join("\n\n") })).json<{ slug: string; job_id: string }>();
    expect(again.slug).toBe(first.slug);
    const job = await pollJob(again.job_id);
    expect(job).toMatchObject({ state: "done", article_slug: first.slug, characters_synthesized: edited[1].length, paragraphs_reused: 4 });
  });
});
