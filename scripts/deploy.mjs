// `npm run deploy`: applies the D1 migrations to the remote database, then deploys both Workers.
// The API Worker (narration-api) goes first: it defines the RenderGate Durable Object class that the
// render Worker binds. The render Worker (narration-render) deploys with `--env production`, the
// section of its wrangler.toml that restates every binding and adds [ai] (kept out of the top level,
// where `wrangler dev` could not serve it offline). Provider keys are secrets of the render Worker:
// `wrangler secret put OPENAI_API_KEY -c workers/render/wrangler.toml --env production`, and so on.
import { execFileSync } from "node:child_process";
import { buildWeb } from "./build-web.mjs";
import { buildVars } from "./local.mjs";

function wrangler(args) {
  console.log(`> wrangler ${args.join(" ")}`);
  execFileSync("wrangler", args, { stdio: "inherit" });
}

const varArgs = Object.entries(buildVars()).flatMap(([k, v]) => ["--var", `${k}:${v}`]);

buildWeb();
wrangler(["d1", "migrations", "apply", "DB", "--remote", "-c", "wrangler.toml"]);
wrangler(["deploy", "-c", "wrangler.toml", ...varArgs]);
wrangler(["deploy", "-c", "workers/render/wrangler.toml", "--env", "production"]);
