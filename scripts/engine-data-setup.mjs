// vitest globalSetup: a loopback HTTP service that serves the eSpeak NG language data
// scripts/vendor-engine.mjs wrote (workers/render/engine/vendor/espeak/<voice>.bin), as npm start's
// seed and the deploy script put it in R2. Tests in workerd GET {engineDataUrl}/<voice>.bin and put it
// in the test's R2 bucket (test/support/engine-data.ts), or hand it to the engine directly.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";

const DIR = path.resolve("workers/render/engine/vendor/espeak");

export default async function setup({ provide }) {
  const server = createServer(async (req, res) => {
    const name = path.basename(new URL(req.url, "http://x").pathname);
    try {
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(await readFile(path.join(DIR, name)));
    } catch {
      res.writeHead(404).end("no such language data");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  provide("engineDataUrl", `http://127.0.0.1:${server.address().port}`);
  return () => server.close();
}
