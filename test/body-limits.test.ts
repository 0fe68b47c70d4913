import { describe, expect, it } from "vitest";
import { methodsOf } from "../workers/core/route";
import { MAX_BODY_BYTES, MAX_FORM_BYTES } from "../workers/core/validate";
import { INTAKE_CONFIRM_PATH } from "../workers/kernel/intake-address";
import { OAUTH_PATHS } from "../workers/kernel/oauth/server";
import { routes } from "../workers/router";
import { LISTEN_PAGES } from "../workers/web/listen/pages";
import { SIGN_IN_PATHS } from "../workers/web/sign-in";
import { addListener } from "./support/articles";
import { adminHeaders, apiKeyHeaders, call } from "./support/client";
import { testVars } from "./vars";

/**
 * Every request body is read through one bounded reader (workers/core/validate.ts readBodyBytes):
 * a body past its limit is a 413, and a chunked body (no Content-Length) is refused once the bytes
 * counted pass the limit, never after being read whole. Generated from the route table, the web
 * pages' forms and the OAuth provider's endpoints.
 */

const CHUNK = 16 * 1024;
/** How far past the limit the stream may have been pulled: the chunk that crossed it, and what the runtime buffers ahead. */
const SLACK = 8 * CHUNK;

/** A chunked body of `total` bytes made as it is read, counting what the server pulled. */
function chunkedBody(total: number) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      pulled.bytes += CHUNK;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

function credentialsFor(auth: string): Record<string, string> {
  if (auth === "api_key") return apiKeyHeaders;
  if (auth === "admin") return adminHeaders;
  // The signature is over bytes the reader refuses to take in full, so any well-formed one will do.
  if (auth === "webhook_signature") return { "x-legacy-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` };
  return {};
}

let ipSeq = 0;
const nextIp = () => `198.18.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

interface Target {
  name: string;
  url: () => Promise<string>;
  method: string;
  headers: Record<string, string>;
  limit: number;
}

const WEB = new URL(testVars.WEB_URL);
const formHeaders = { Origin: WEB.origin, "content-type": "application/x-www-form-urlencoded" };

const apiTargets: Target[] = routes
  .filter((r) => r.body || r.path === "/mcp/v1")
  .flatMap((r) =>
    methodsOf(r)
      .filter((m) => m !== "GET" && m !== "HEAD" && m !== "DELETE")
      .map((method) => ({
        name: `${method} ${r.path}`,
        method,
        url: async () => {
          const token = r.auth === "listener_token" ? (await addListener()).token : "x";
          return new URL(r.path.replace(/:(\w+)/g, (_, name: string) => (name === "token" ? token : "x")), testVars.BASE_URL).href;
        },
        headers: { ...credentialsFor(r.auth), "content-type": "application/json", accept: "application/json, text/event-stream" },
        limit: MAX_BODY_BYTES,
      })),
  );

const formPaths = [
  ...Object.keys(LISTEN_PAGES).filter((k) => k.startsWith("POST ")).map((k) => k.slice("POST ".length)),
  SIGN_IN_PATHS.request,
  SIGN_IN_PATHS.confirm,
  SIGN_IN_PATHS.signOut,
  OAUTH_PATHS.authorize,
  INTAKE_CONFIRM_PATH,
  OAUTH_PATHS.token,
  OAUTH_PATHS.register,
];
const formTargets: Target[] = formPaths.map((path) => ({
  name: `POST ${path}`,
  method: "POST",
  url: async () => new URL(path, WEB).href,
  headers: path === OAUTH_PATHS.register ? { "content-type": "application/json" } : formHeaders,
  limit: MAX_FORM_BYTES,
}));

const targets = [...apiTargets, ...formTargets].map((t) => [t.name, t] as const);

describe("request bodies past their limit", () => {
  it("covers every route with a body, every form and the OAuth endpoints", () => {
    expect(apiTargets.length).toBeGreaterThan(20);
    expect(formTargets.length).toBeGreaterThan(8);
  });

  it.each(targets)("%s answers 413 to a body one byte past its limit", async (_, t) => {
    const res = await call(await t.url(), { method: t.method, headers: t.headers, body: " ".repeat(t.limit + 1), ip: nextIp() });
    expect(res.status).toBe(413);
  });

  it.each(targets)("%s stops reading a chunked body at its limit and answers 413", async (_, t) => {
    const { stream, pulled } = chunkedBody(t.limit * 4);
    const res = await call(await t.url(), { method: t.method, headers: t.headers, body: stream, ip: nextIp() });
    expect(res.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(t.limit + SLACK);
  });
});
