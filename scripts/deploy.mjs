// `npm run deploy`: applies the D1 migrations to the remote database, then deploys both Workers.
// The API Worker (narration-api) goes first: it defines the RenderStore entrypoint through which the
// render Worker reaches all state (its only storage binding, STORE). The render Worker (narration-render) deploys with `--env production`, the
// section of its wrangler.toml that restates every binding and adds [ai] (kept out of the top level,
// where `wrangler dev` could not serve it offline). Provider keys are secrets of the render Worker:
// `wrangler secret put OPENAI_API_KEY -c workers/render/wrangler.toml --env production`, and so on.
//
// Before anything, the deploy guard (workers/agents/x402/deploy-guard.ts) reads the addresses and x402
// settings the API Worker would go out with: wrangler.toml's [vars], or the same names set in the
// environment (`X402_PAY_TO=0x... X402_FACILITATOR_URL=https://... npm run deploy`), which are then passed
// as --var. It refuses, and nothing is deployed, while they are still the one-machine defaults.
import { putEngineData } from "./engine-data.mjs";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { deployRefusals } from "../workers/agents/x402/deploy-guard.ts";
import { buildWeb } from "./build-web.mjs";
import { buildVars } from "./local.mjs";

function wrangler(args) {
  console.log(`> wrangler ${args.join(" ")}`);
  execFileSync("wrangler", args, { stdio: "inherit" });
}

const GUARDED = ["BASE_URL", "X402_FACILITATOR_URL", "X402_PAY_TO"];
const toml = readFileSync("wrangler.toml", "utf8");
const fromEnvironment = Object.fromEntries(GUARDED.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
const deployed = {
  ...Object.fromEntries(GUARDED.map((name) => [name, new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(toml)?.[1]])),
  ...fromEnvironment,
};
const refusals = deployRefusals(deployed);
if (refusals.length > 0) {
  console.error(`npm run deploy: refused, nothing was deployed.\n${refusals.map((r) => `- ${r}`).join("\n")}`);
  console.error("Set them in wrangler.toml [vars], or in the environment of this command.");
  process.exit(1);
}

const varArgs = Object.entries({ ...buildVars(), ...fromEnvironment }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);

buildWeb();
wrangler(["d1", "migrations", "apply", "DB", "--remote", "-c", "wrangler.toml"]);
// The offline engine's languages beyond English, read from R2 when first needed (scripts/engine-data.mjs).
putEngineData(["--remote"]);
wrangler(["deploy", "-c", "wrangler.toml", ...varArgs]);
wrangler(["deploy", "-c", "workers/render/wrangler.toml", "--env", "production"]);
