import { EXTENSION_ID, RESOURCE_MIME_TYPE, registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer } from "@modelcontextprotocol/server";
import { baseUrl } from "../../core/config";
import built from "./views.json";

/**
 * The MCP Apps views (extension io.modelcontextprotocol/ui, specification 2026-01-26; docs/agents/apps.md "A player
 * inside the chat"): get_audio_url and search_articles name a `ui://` resource in their tools/list `_meta.ui`,
 * and a host that supports the extension reads it (resources/read), renders it in a sandboxed frame, and hands
 * it the tool's result. Hosts without the extension ignore `_meta` and get the same results as ever.
 *
 * A view is one HTML document: its script and style (view/, bundled by scripts/build-web.mjs into views.json)
 * are inlined, since a resource has no URL of its own to load files from. It reaches the network only at
 * BASE_URL's origin (the audio and the public transcript), which its CSP declares and nothing else; it
 * calls tools through the host, with the host's authorization, and holds no credential.
 */

/** A view: the tool it shows, its resource, and its script in views.json. */
interface View {
  tool: string;
  uri: string;
  name: string;
  description: string;
  script: keyof typeof built;
}

export const VIEWS = [
  {
    tool: "get_audio_url",
    uri: "ui://narration/player",
    name: "Narration player",
    description: "Plays the article's narration with its title, publisher, speed and the transcript lit word by word as it is spoken.",
    script: "player.js",
  },
  {
    tool: "search_articles",
    uri: "ui://narration/search",
    name: "Search results player",
    description: "The articles found, each playable in place; one without audio yet is rendered on request.",
    script: "search.js",
  },
] as const satisfies readonly View[];

/** What a server tells clients of the extension (capabilities.extensions, as SEP-1724 declares extensions): it serves views; no settings. */
export const UI_EXTENSION_CAPABILITY = { [EXTENSION_ID]: {} };

/** The tools/list `_meta` of `tool`: the view that shows its results (MCP Apps "Resource Discovery"), or none. */
export function viewMeta(tool: string): { ui: { resourceUri: string } } | undefined {
  const view = VIEWS.find((v) => v.tool === tool);
  return view ? { ui: { resourceUri: view.uri } } : undefined;
}

/**
 * The view's resource `_meta.ui`. CSP (MCP Apps "UI Resource Format"): the audio (media) and the transcript
 * (fetch) are at BASE_URL's origin, the only domain declared either way; the script and style are inline,
 * which the host's restrictive default allows. No frames, no permissions. A border sets the player apart from the chat.
 */
function resourceMeta(env: object) {
  const origin = new URL(baseUrl(env)).origin;
  return { ui: { csp: { connectDomains: [origin], resourceDomains: [origin] }, prefersBorder: true } };
}

/**
 * The document of `view`. BASE_URL goes in as the URL parser serialises it, which percent-encodes `"`, `<`
 * and `>`, so only `&` needs escaping in the attribute.
 */
function viewHtml(env: object, view: View): string {
  const api = new URL(baseUrl(env)).href.replace(/&/g, "&amp;");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="narration-api" content="${api}"><title>${view.name}</title><style>${built["view.css"]}</style></head>
<body><main></main><script type="module">${built[view.script]}</script></body></html>`;
}

/** Registers the views as resources of `server` (resources/list, resources/read), each read as one `text/html;profile=mcp-app` document. */
export function registerViews(server: McpServer, env: object): void {
  for (const view of VIEWS) {
    const meta = resourceMeta(env);
    registerAppResource(server, view.name, view.uri, { description: view.description, _meta: meta }, () => ({
      contents: [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: viewHtml(env, view), _meta: meta }],
    }));
  }
}
