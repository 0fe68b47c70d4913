import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { forgetEdgeCache, readyArticle } from "../../test/support/feeds";

async function createCreator(slug: string, name = "Ada Writes") {
  const res = await call("/v1/admin/creators", jsonBody("POST", { slug, name }, adminHeaders));
  return { res, body: (await res.json()) as { creator: { feed_url: string; claimed: boolean }; claim_token: string; claim_url: string } };
}

describe("creator tenants and their feeds", () => {
  it("an operator creates a tenant; its feed exists at once and carries the creator's public audio", async () => {
    await forgetEdgeCache(["/v1/podcasts/creator/ada.xml"]);
    const { res, body } = await createCreator("ada");
    expect(res.status).toBe(201);
    expect(body.creator.feed_url).toBe("https://api.test/v1/podcasts/creator/ada.xml");
    expect(body.claim_url).toBe("https://api.test/v1/creators/ada/claim");
    expect(body.creator.claimed).toBe(false);

    const creator = await env.DB.prepare("SELECT id FROM creators WHERE slug = 'ada'").first<{ id: number }>();
    await readyArticle({ title: "By Ada", creatorId: creator!.id });
    await readyArticle({ title: "Not by Ada" });
    await readyArticle({ title: "Ada paywalled", creatorId: creator!.id, visibility: "publisher_only" });

    for (const method of ["GET", "HEAD"]) expect((await call("/v1/podcasts/creator/ada.xml", { method })).status).toBe(200);
    const { feed, problems } = validatePodcastFeed(await (await call("/v1/podcasts/creator/ada.xml")).text(), { locked: false, checkArtworkSize: true });
    expect(problems).toEqual([]);
    expect(feed!.title).toBe("Ada Writes");
    expect(feed!.itunes!.author).toBe("Ada Writes");
    expect(feed!.items!.map((i) => i.title)).toEqual(["By Ada"]);
  });

  it("an unknown creator's feed is 404; creating needs the admin token; a taken slug is 409; a bad slug 422", async () => {
    expect((await call("/v1/podcasts/creator/nobody.xml")).status).toBe(404);
    expect((await call("/v1/admin/creators", jsonBody("POST", { slug: "ada", name: "Ada" }))).status).toBe(401);
    expect((await createCreator("ada")).res.status).toBe(201);
    expect((await createCreator("ada")).res.status).toBe(409);
    expect((await createCreator("Not A Slug")).res.status).toBe(422);
  });

  it("the creator claims the tenant once with the claim token", async () => {
    const { body } = await createCreator("grace");
    expect((await call("/v1/creators/grace/claim", jsonBody("POST", { claim_token: "wrong", email: "g@example.test" }))).status).toBe(401);
    expect((await call("/v1/creators/nobody/claim", jsonBody("POST", { claim_token: body.claim_token, email: "g@example.test" }))).status).toBe(404);

    const claim = await call("/v1/creators/grace/claim", jsonBody("POST", { claim_token: body.claim_token, email: "Grace@Example.test" }));
    expect(claim.status).toBe(200);
    const claimed = (await claim.json()) as { claimed: boolean; claimed_by_email: string; claimed_at: string; feed_url: string };
    expect(claimed).toMatchObject({ claimed: true, claimed_by_email: "grace@example.test", feed_url: "https://api.test/v1/podcasts/creator/grace.xml" });
    expect(Date.parse(claimed.claimed_at)).not.toBeNaN();

    const again = await call("/v1/creators/grace/claim", jsonBody("POST", { claim_token: body.claim_token, email: "x@example.test" }));
    expect(again.status).toBe(409);
  });

  it("two concurrent claims: exactly one wins", async () => {
    const { body } = await createCreator("race");
    const claims = await Promise.all(
      ["a@example.test", "b@example.test"].map((email) => call("/v1/creators/race/claim", jsonBody("POST", { claim_token: body.claim_token, email }))),
    );
    expect(claims.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
