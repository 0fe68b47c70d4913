import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { config } from "../../core/config";
import { requirementFor, x402Settings } from "./requirements";

describe("x402 configuration (X402_NETWORK, X402_PAY_TO, X402_FACILITATOR_URL)", () => {
  it("defaults to Base Sepolia USDC, the local facilitator and the configured pay-to", () => {
    const settings = x402Settings(env);
    expect(settings).toEqual({
      network: "eip155:84532",
      payTo: env.X402_PAY_TO,
      facilitatorUrl: "local",
      asset: { address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", name: "USDC", version: "2", decimals: 6 },
    });
    expect(requirementFor(settings, 1_000)).toMatchObject({ scheme: "exact", amount: "1000", extra: { name: "USDC", version: "2" } });
  });

  it("follows X402_NETWORK to that network's USDC (Base mainnet)", () => {
    expect(x402Settings({ ...env, X402_NETWORK: "eip155:8453" }).asset).toEqual({
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      name: "USD Coin",
      version: "2",
      decimals: 6,
    });
  });

  it.each([
    ["X402_NETWORK", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"],
    ["X402_PAY_TO", "0x1234"],
    ["X402_FACILITATOR_URL", "nearby"],
  ])("refuses a malformed %s by name", (name, value) => {
    expect(() => config({ ...env, [name]: value })).toThrow(new RegExp(`${name} \\(x402\\) must`));
  });

  it("makes paid tools unavailable (503) without a pay-to address or without USDC on the network", () => {
    expect(() => x402Settings({ ...env, X402_PAY_TO: "" })).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => x402Settings({ ...env, X402_NETWORK: "eip155:999999" })).toThrow(expect.objectContaining({ status: 503 }));
  });
});
