import { describe, expect, it } from "vitest";
import { callLegs, NO_SINGLE_PUBLISHER } from "./ledger";
import { acceptedAmounts, PAID_TOOLS, priceOf, PRICES } from "./prices";

describe("the price table (docs/rules.md 5: $0.001 to $0.30 by weight)", () => {
  const all = [PRICES.get_audio_url.cached, PRICES.get_audio_url.render, PRICES.subscribe_topic, PRICES.digest];

  it('is the table docs/agents/payments.md "Prices" states, in USDC atomic units', () => {
    expect(PRICES).toEqual({ get_audio_url: { cached: 1_000, render: 20_000 }, subscribe_topic: 10_000, digest: 50_000 });
  });

  it("keeps every price between 1000 and 300000 USDC atomic units", () => {
    for (const price of all) {
      expect(price).toBeGreaterThanOrEqual(1_000);
      expect(price).toBeLessThanOrEqual(300_000);
    }
  });

  it("makes cached audio cheaper than a render and the digest the heaviest", () => {
    expect(PRICES.get_audio_url.cached).toBeLessThan(PRICES.get_audio_url.render);
    expect(Math.max(...all)).toBe(PRICES.digest);
    expect(all.filter((p) => p === PRICES.digest)).toHaveLength(1);
  });

  it("charges nothing for the free tools", () => {
    for (const tool of ["search_articles", "get_article", "list_subscriptions"]) expect(priceOf(tool)).toBeNull();
    for (const tool of PAID_TOOLS) expect(priceOf(tool)).toBeGreaterThan(0);
  });

  it("quotes get_audio_url by cache state and accepts an honoured render quote once cached", () => {
    expect(priceOf("get_audio_url", { cached: true })).toBe(PRICES.get_audio_url.cached);
    expect(priceOf("get_audio_url", { cached: false })).toBe(PRICES.get_audio_url.render);
    expect(acceptedAmounts("get_audio_url", { cached: true })).toEqual([PRICES.get_audio_url.cached, PRICES.get_audio_url.render]);
    expect(acceptedAmounts("get_audio_url", { cached: false })).toEqual([PRICES.get_audio_url.render]);
    expect(acceptedAmounts("digest")).toEqual([PRICES.digest]);
  });
});

describe("the legs of a paid call", () => {
  const sum = (legs: { amountMicros: number }[]) => legs.reduce((s, l) => s + l.amountMicros, 0);

  it.each([1_000, 1_001, 9_999, 20_000, 50_000, 299_999, 300_000])("sum exactly to %i micros for any number of publishers", (amount) => {
    for (const publishers of [[], ["A"], ["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D", "E", "F", "G"]]) {
      const legs = callLegs(amount, publishers);
      expect(sum(legs)).toBe(amount);
      expect(legs.filter((l) => l.party === "agent_recommender")).toHaveLength(1);
      expect(legs.filter((l) => l.party === "platform")).toHaveLength(1);
    }
  });

  it("splits 70 / 20 / 10 with the rounding remainder to the publisher", () => {
    expect(callLegs(1_001, ["A"])).toEqual([
      { party: "publisher", publisher: "A", amountMicros: 701 },
      { party: "agent_recommender", publisher: "A", amountMicros: 200 },
      { party: "platform", publisher: "A", amountMicros: 100 },
    ]);
  });

  it("books the publisher share under the no-single-publisher mark when the call returned no article", () => {
    expect(callLegs(10_000, [])).toEqual([
      { party: "publisher", publisher: NO_SINGLE_PUBLISHER, amountMicros: 7_000 },
      { party: "agent_recommender", publisher: NO_SINGLE_PUBLISHER, amountMicros: 2_000 },
      { party: "platform", publisher: NO_SINGLE_PUBLISHER, amountMicros: 1_000 },
    ]);
  });
});
