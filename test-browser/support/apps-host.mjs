// The test host of MCP Apps (extension io.modelcontextprotocol/ui, specification 2026-01-26) for
// test-browser/mcp-apps.test.mjs, built as a web chat builds one:
// - its backend (this process): an official MCP SDK client connected to the platform's /mcp/v1 over HTTP,
//   declaring the extension, which calls the tools (the model's calls and the views' alike), reads the views'
//   resources, and pays for a paid call with x402 as a wallet agent does (a throwaway key, the local facilitator);
// - its page (support/apps-host-page.mjs, bundled here with esbuild) at one origin, and the sandbox proxy at
//   another, which loads the view under the CSP the spec builds from the resource's `_meta.ui.csp`
//   ("Security Implications", "CSP Construction from Metadata"), sent as a header so the view cannot change it.
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { buildSync } from "esbuild";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The CSP of a view with resource CSP `csp`, exactly as the spec's host constructs it. */
export function viewCsp(csp = {}) {
  const resources = (csp.resourceDomains ?? []).join(" ");
  const connect = (csp.connectDomains ?? []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${connect}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${(csp.frameDomains ?? []).join(" ") || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp.baseUriDomains ?? []).join(" ") || "'self'"}`,
  ]
    .map((d) => d.trim())
    .join("; ");
}

/**
 * The sandbox proxy's page: an inner frame that gets the view's HTML (ui/notifications/sandbox-resource-ready),
 * and every other message relayed between the host and the view. The inner frame is about:blank written by
 * this page, so it runs under this page's CSP.
 */
function sandboxPage(hostOrigin) {
  return `<!doctype html><html><head><style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%}</style></head><body><script>
const HOST = ${JSON.stringify(hostOrigin)};
const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin");
document.body.append(inner);
addEventListener("message", (event) => {
  if (event.source === parent) {
    if (event.origin !== HOST) return;
    if (event.data?.method === "ui/notifications/sandbox-resource-ready") {
      const doc = inner.contentDocument;
      doc.open();
      doc.write(event.data.params.html);
      doc.close();
    } else inner.contentWindow.postMessage(event.data, "*");
  } else if (event.source === inner.contentWindow) parent.postMessage(event.data, HOST);
});
parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, HOST);
</script></body></html>`;
}

/** `handle` listening on a free port of localhost; resolves to { server, origin }. */
function listen(handle) {
  const server = createServer(handle);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://localhost:${server.address().port}` })));
}

/**
 * The host's page and its sandbox proxy, each on its own origin. `probes` counts the requests that reached
 * the host's origin at /probe: a view whose CSP holds sends none.
 */
export async function startHostSite() {
  const script = buildSync({ entryPoints: [path.join(HERE, "apps-host-page.mjs")], bundle: true, format: "esm", write: false, logLevel: "warning" })
    .outputFiles[0].text;
  const probes = [];
  const host = await listen((req, res) => {
    if (req.url.startsWith("/probe")) probes.push(req.url);
    if (req.url === "/host.js") {
      res.setHeader("Content-Type", "text/javascript");
      return res.end(script);
    }
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html lang="en"><title>A chat</title><h1>A chat</h1><script type="module" src="/host.js"></script>`);
  });
  const sandbox = await listen((req, res) => {
    const csp = JSON.parse(new URL(req.url, "http://x").searchParams.get("csp") ?? "{}");
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Security-Policy", viewCsp(csp));
    res.end(sandboxPage(host.origin));
  });
  return {
    origin: host.origin,
    sandbox: `${sandbox.origin}/sandbox`,
    probes,
    close: () => {
      host.server.close();
      sandbox.server.close();
    },
  };
}

/** True for a tool result that is x402's PaymentRequired (the MCP transport: an isError result carrying it). */
const paymentRequired = (result) => result.isError && Array.isArray(result.structuredContent?.accepts) && result.structuredContent.x402Version === 2;

/**
 * The host's backend: an MCP client of `base`/mcp/v1 that declares the extension, and a wallet. `calls`
 * records every tool call with who asked for it ("model" or "view") and what it answered.
 */
export async function hostBackend(base) {
  const client = new Client(
    { name: "narration-test-host", version: "1.0.0" },
    { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/v1`)));
  const wallet = new x402Client().register("eip155:*", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  const { tools } = await client.listTools();
  const calls = [];
  /** Calls `name`; a PaymentRequired answer is paid and the call made again with the payment. */
  async function callTool(name, args, by) {
    let result = await client.callTool({ name, arguments: args });
    if (paymentRequired(result)) {
      const payment = await wallet.createPaymentPayload(result.structuredContent);
      result = await client.callTool({ name, arguments: args, _meta: { "x402/payment": JSON.parse(JSON.stringify(payment)) } });
    }
    calls.push({ name, args, by, result });
    return result;
  }
  /** The view of tool `name` (its tools/list `_meta.ui.resourceUri`), read over MCP: { uri, html, csp }. */
  async function view(name) {
    const uri = tools.find((t) => t.name === name)?._meta?.ui?.resourceUri;
    const { contents } = await client.readResource({ uri });
    if (contents.length !== 1 || contents[0].mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri} is not one ${RESOURCE_MIME_TYPE} document`);
    return { uri, html: contents[0].text, csp: contents[0]._meta?.ui?.csp };
  }
  return { callTool, view, calls, close: () => client.close() };
}
