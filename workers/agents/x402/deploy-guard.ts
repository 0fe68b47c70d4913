/**
 * What keeps paid tools from booking revenue nobody paid (issue 29 item 4). The local facilitator
 * (X402_FACILITATOR_URL=local) verifies signatures and moves no money, and the repository ships a
 * throwaway pay-to address whose key nobody kept: both are for one machine. `npm run deploy`
 * (scripts/deploy.mjs) refuses them, and the Worker refuses paid tools when the local facilitator
 * would face the public (x402/requirements.ts). Plain TypeScript whose one import names its file
 * (.ts): the deploy script imports it under Node as it is.
 */
import { isLocalOrigin } from "../../core/local-origin.ts";

/** The pay-to address wrangler.toml and .dev.vars.example ship for one machine; nobody holds its key. */
export const THROWAWAY_PAY_TO = "0xf082b0A3EffAB41e247DB2841D7959920491D483";

/** The deployed values the guard reads; absent ones take the Worker's defaults (workers/core/config.ts). */
export interface DeployVars {
  BASE_URL?: string;
  X402_PAY_TO?: string;
  X402_FACILITATOR_URL?: string;
}

/**
 * Why a deploy with `vars` must not go ahead, one sentence each; empty when it may. With no pay-to
 * address paid tools are off (503), so there is nothing to guard.
 */
export function deployRefusals(vars: DeployVars): string[] {
  const refusals: string[] = [];
  const baseUrl = vars.BASE_URL ?? "";
  const payTo = vars.X402_PAY_TO ?? "";
  if (isLocalOrigin(baseUrl)) refusals.push(`BASE_URL ${baseUrl} names this machine or a test: set the public address of the API.`);
  if (payTo === "") return refusals;
  if ((vars.X402_FACILITATOR_URL ?? "local") === "local") {
    refusals.push("X402_FACILITATOR_URL is local: it moves no money, so every paid call would be booked unpaid. Set the URL of a real facilitator.");
  }
  if (payTo.toLowerCase() === THROWAWAY_PAY_TO.toLowerCase()) {
    refusals.push(`X402_PAY_TO is the throwaway address the repository ships (${THROWAWAY_PAY_TO}); nobody holds its key. Set your own address.`);
  }
  return refusals;
}
