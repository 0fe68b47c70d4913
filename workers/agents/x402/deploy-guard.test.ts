import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isLocalOrigin } from "../../core/local-origin";
import { deployRefusals, THROWAWAY_PAY_TO } from "./deploy-guard";

/** What `npm run deploy` checks before it deploys anything (scripts/deploy.mjs, issue 29 item 4). */

const PUBLIC = "https://narration.example.com";
const OWN_ADDRESS = "0x000000000000000000000000000000000000dEaD";
const FACILITATOR = "https://facilitator.example.com";

describe("deployRefusals: the one-machine defaults never reach a deployment", () => {
  it("refuses what the repository ships: wrangler.toml's values, which the tests run with", () => {
    // The throwaway address is written once (deploy-guard.ts); this keeps wrangler.toml's copy tied to it.
    expect(env.X402_PAY_TO).toBe(THROWAWAY_PAY_TO);
    expect(deployRefusals({ BASE_URL: "http://127.0.0.1:8787", X402_PAY_TO: env.X402_PAY_TO, X402_FACILITATOR_URL: "local" })).toEqual([
      "BASE_URL http://127.0.0.1:8787 names this machine or a test: set the public address of the API.",
      "X402_FACILITATOR_URL is local: it moves no money, so every paid call would be booked unpaid. Set the URL of a real facilitator.",
      `X402_PAY_TO is the throwaway address the repository ships (${THROWAWAY_PAY_TO}); nobody holds its key. Set your own address.`,
    ]);
  });

  it("refuses the local facilitator, also when it is left to the default", () => {
    for (const facilitator of ["local", undefined]) {
      expect(deployRefusals({ BASE_URL: PUBLIC, X402_PAY_TO: OWN_ADDRESS, X402_FACILITATOR_URL: facilitator })).toEqual([
        "X402_FACILITATOR_URL is local: it moves no money, so every paid call would be booked unpaid. Set the URL of a real facilitator.",
      ]);
    }
  });

  it("refuses the throwaway address in any letter case", () => {
    for (const payTo of [THROWAWAY_PAY_TO, THROWAWAY_PAY_TO.toLowerCase(), `0x${THROWAWAY_PAY_TO.slice(2).toUpperCase()}`]) {
      expect(deployRefusals({ BASE_URL: PUBLIC, X402_PAY_TO: payTo, X402_FACILITATOR_URL: FACILITATOR })).toHaveLength(1);
    }
  });

  it("lets a deployment with its own address, a real facilitator and a public BASE_URL go", () => {
    expect(deployRefusals({ BASE_URL: PUBLIC, X402_PAY_TO: OWN_ADDRESS, X402_FACILITATOR_URL: FACILITATOR })).toEqual([]);
  });

  it("has nothing to guard with paid tools off (no pay-to address: they answer 503)", () => {
    expect(deployRefusals({ BASE_URL: PUBLIC, X402_PAY_TO: "", X402_FACILITATOR_URL: "local" })).toEqual([]);
    expect(deployRefusals({ BASE_URL: PUBLIC })).toEqual([]);
  });
});

describe("isLocalOrigin: which BASE_URL names only this machine or a test", () => {
  it.each([
    "http://127.0.0.1:8787",
    "http://127.1.2.3",
    "http://localhost:8787",
    "http://api.localhost",
    "http://[::1]:8787",
    "https://api.test",
    "https://LOCALHOST.",
  ])("%s is local", (url) => expect(isLocalOrigin(url)).toBe(true));

  it.each([
    PUBLIC,
    "http://128.0.0.1",
    "http://10.0.0.2",
    "http://[::2]",
    "https://localhost.example.com",
    "https://test.example.com",
    "https://api.testing",
    "not a url",
  ])("%s is not", (url) => expect(isLocalOrigin(url)).toBe(false));
});
