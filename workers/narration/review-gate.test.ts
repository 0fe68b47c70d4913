import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { database, publisherSettings } from "../db/index";
import { heldForReview } from "./review-gate";

/** Who waits for an editor (docs/publishers.md "Review before release"). */
describe("heldForReview", () => {
  it("holds a publisher's article when review is on, never a listener's own forwarded one", async () => {
    const db = database(env);
    await db.insert(publisherSettings).values({ publisher: "Gated Gazette", reviewBeforeRelease: true });
    const published = await addArticle({ publisher: "Gated Gazette" });
    const stub = await addArticle({ publisher: "Gated Gazette", visibility: "publisher_only" });
    const forwarded = await addArticle({ publisher: "Gated Gazette", visibility: "listener_private" });
    expect(await heldForReview(db, published.id)).toBe(true);
    expect(await heldForReview(db, stub.id)).toBe(true);
    expect(await heldForReview(db, forwarded.id)).toBe(false);
  });

  it("holds nothing when review is off or the publisher has no settings", async () => {
    const db = database(env);
    await db.insert(publisherSettings).values({ publisher: "Open Observer", reviewBeforeRelease: false });
    expect(await heldForReview(db, (await addArticle({ publisher: "Open Observer" })).id)).toBe(false);
    expect(await heldForReview(db, (await addArticle({ publisher: "Unset Union" })).id)).toBe(false);
  });
});
