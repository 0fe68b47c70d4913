import { exports } from "cloudflare:workers";
import { testVars } from "../vars";

/** Sends a request to the API Worker under test, as a client at `ip` would. */
export function call(path: string, init: RequestInit & { ip?: string } = {}): Promise<Response> {
  const { ip = "203.0.113.1", ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set("cf-connecting-ip", ip);
  return exports.default.fetch(new Request(new URL(path, testVars.BASE_URL), { ...rest, headers }));
}

/** A JSON request body with its content type. */
export function jsonBody(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } };
}

export const apiKeyHeaders = { "x-service-key": testVars.SERVICE_API_KEY };
export const adminHeaders = { "x-service-email-token": testVars.ADMIN_TOKEN };
