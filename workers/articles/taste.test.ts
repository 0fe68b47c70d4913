import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../db";
import { addArticle, addListener, addPlays } from "../../test/support/articles";
import { HOSTS } from "../kernel/hosts";
import { DIMENSIONS, refreshTasteVector, tasteFrom, TOPICS } from "./taste";

const topic = (slug: string) => TOPICS.indexOf(slug as (typeof TOPICS)[number]);
const host = (slug: string) => TOPICS.length + 1 + HOSTS.indexOf(slug as (typeof HOSTS)[number]);

describe("taste vectors", () => {
  it("is null without any signal, unit length otherwise", () => {
    expect(tasteFrom({ verticals: [], pinned: null, played: [], forwarded: [] })).toBeNull();
    const t = tasteFrom({ verticals: ["tech", "parenting"], pinned: "tech", played: [], forwarded: [] })!;
    expect(t).toHaveLength(DIMENSIONS);
    expect(Math.hypot(...t)).toBeCloseTo(1, 5);
    expect(t[topic("tech")]).toBeCloseTo(2 / Math.sqrt(5), 5);
    expect(t[topic("young_moms")]).toBeCloseTo(1 / Math.sqrt(5), 5);
  });

  it("weighs forwards above plays and spreads a hosted article over topic and host", () => {
    const t = tasteFrom({
      verticals: [],
      pinned: null,
      played: [{ vertical: "sports", host: null }],
      forwarded: [
        { vertical: "finance", host: "markets" },
        { vertical: "zoology", host: null },
      ],
    })!;
    expect(t[topic("finance")]).toBeCloseTo(t[host("markets")], 6);
    expect(t[topic("finance")]).toBeLessThan(t[TOPICS.length]);
    expect(t[topic("sports")]).toBeLessThan(t[TOPICS.length]);
  });

  it("is rebuilt from a listener's stored verticals, plays and forwards", async () => {
    const { listener } = await addListener({ verticals: ["science"] });
    const played = await addArticle({ vertical: "sports" });
    await addPlays(played.id, 3, new Date(), listener.id);
    await addArticle({ vertical: "finance", visibility: "listener_private", ownerListenerId: listener.id });
    const t = (await refreshTasteVector(database(env), listener))!;
    // science 1 (subscribed), sports 3 x 0.25 (plays), finance 0.5 (one forward), then unit length.
    const norm = Math.hypot(1, 0.75, 0.5);
    expect(t[topic("science")]).toBeCloseTo(1 / norm, 5);
    expect(t[topic("sports")]).toBeCloseTo(0.75 / norm, 5);
    expect(t[topic("finance")]).toBeCloseTo(0.5 / norm, 5);
    const stored = await database(env).query.listeners.findFirst({ where: (l, { eq }) => eq(l.id, listener.id) });
    expect(stored?.tasteVector).toEqual(t);
  });
});
