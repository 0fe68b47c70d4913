// vitest globalSetup: a webhook receiver on loopback, a real HTTP server that publishers' endpoints
// stand for in the tests of outbound webhooks (docs/publishers.md "Webhooks"). Tests reach it at the URL
// provided as "webhookReceiverUrl" (http://127.0.0.1:<port>).
//
//   POST /hooks/<name>              records the request (headers and the exact body) and answers 204
//   POST /hooks/<name>?fail=<n>     answers 500 to the first n requests to that name, then 204
//   GET  /received/<name>           the requests recorded for that name, oldest first, with the status answered
//
// Names keep tests that run at once apart.
import { createServer } from "node:http";

export default async function setup({ provide }) {
  /** @type {Map<string, {headers: Record<string, string>, body: string, status: number}[]>} */
  const received = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://receiver");
    const hook = /^\/hooks\/([\w-]+)$/.exec(url.pathname);
    const list = /^\/received\/([\w-]+)$/.exec(url.pathname);
    if (req.method === "GET" && list) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(list[1]) ?? []));
      return;
    }
    if (req.method !== "POST" || !hook) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const seen = received.get(hook[1]) ?? [];
      const status = seen.length < Number(url.searchParams.get("fail") ?? 0) ? 500 : 204;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      seen.push({ headers, body: Buffer.concat(chunks).toString("utf8"), status });
      received.set(hook[1], seen);
      res.writeHead(status).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  provide("webhookReceiverUrl", `http://127.0.0.1:${server.address().port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}
