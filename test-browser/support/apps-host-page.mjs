// The browser half of the test host of MCP Apps (test-browser/mcp-apps.test.mjs): what a web chat does with a
// tool's view, with the extension SDK's own host helper (AppBridge). It frames the sandbox proxy (another
// origin, specification 2026-01-26 "Sandbox proxy"), hands it the view's HTML and CSP once the proxy is ready,
// answers the view's ui/initialize, and after ui/notifications/initialized sends the tool's input and result.
// The view's tools/call go to the host's backend (window.hostCallTool, the test process), which holds the MCP
// connection and pays, as a chat's server does: nothing of it reaches the view.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const HOST_INFO = { name: "narration-test-host", version: "1.0.0" };

/** Resolves when `frame`'s proxy says it is ready (ui/notifications/sandbox-proxy-ready). */
function proxyReady(frame) {
  return new Promise((resolve) => {
    addEventListener("message", function ready(event) {
      if (event.source !== frame.contentWindow || event.data?.method !== "ui/notifications/sandbox-proxy-ready") return;
      removeEventListener("message", ready);
      resolve();
    });
  });
}

/** Shows the view `html` (its resource's CSP `csp`) for a call of a tool with `args` that answered `result`. */
window.showView = async ({ html, csp, args, result, sandbox }) => {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  frame.style.cssText = "width: 640px; height: 200px; border: 1px solid #999";
  const ready = proxyReady(frame);
  frame.src = `${sandbox}?csp=${encodeURIComponent(JSON.stringify(csp ?? {}))}`;
  document.body.append(frame);
  await ready;
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    { serverTools: {}, openLinks: {} },
    { hostContext: { theme: "light", displayMode: "inline", platform: "web" } },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  await bridge.sendSandboxResourceReady({ html, csp });
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
};
