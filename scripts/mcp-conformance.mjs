// `npm run conformance`: starts the platform as `npm start` does (own port and state), then runs the
// official MCP conformance suite's server scenarios (@modelcontextprotocol/conformance) against
// /mcp/v1. Scenarios that test features this server does not offer are listed, with the reason,
// in scripts/mcp-conformance-baseline.yml; the suite fails on any other failure and on a listed
// scenario that starts passing.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { ensureDevVars, migrate, startDev } from "./local.mjs";

const PORT = Number(process.env.CONFORMANCE_PORT ?? 8801);
const STATE = ".wrangler/conformance-state";
const BASELINE = "scripts/mcp-conformance-baseline.yml";
const cli = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/dist/index.js");

ensureDevVars();
rmSync(STATE, { recursive: true, force: true });
migrate(STATE);
// The suite makes more tool calls a minute than the per-agent budget allows; limits have tests of their own.
const { child, base } = await startDev({ port: PORT, persistTo: STATE, quiet: true, vars: { RATE_LIMIT_READ_PER_MINUTE: "0" } });
let status = 1;
try {
  const run = spawnSync(
    process.execPath,
    [cli, "server", "--url", `${base}/mcp/v1`, "--expected-failures", BASELINE, "-o", ".wrangler/conformance-results", ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  status = run.status ?? 1;
} finally {
  child.kill();
}
process.exit(status);
