import { config } from "./config";
import { secretsEqual } from "./crypto";
import { ApiError } from "./errors";

/** True when any of `given` equals `expected`; every candidate is compared, in constant time. */
async function anyMatches(given: (string | null)[], expected: string[]): Promise<boolean> {
  const secrets = expected.filter((e) => e !== "");
  const candidates = given.filter((g): g is string => g !== null && g !== "");
  const results = await Promise.all(candidates.flatMap((g) => secrets.map((s) => secretsEqual(g, s))));
  return results.includes(true);
}

/** The API key of render, jobs and plays: query api_key, header x-service-key or x-legacy-key (SPEC.md part 5). */
export async function hasApiKey(env: object, request: Request, url: URL): Promise<boolean> {
  const given = [url.searchParams.get("api_key"), request.headers.get("x-service-key"), request.headers.get("x-legacy-key")];
  return anyMatches(given, [config(env).SERVICE_API_KEY]);
}

/** Throws 401 unless the request carries the service API key. */
export async function requireApiKey(env: object, request: Request, url: URL): Promise<void> {
  if (!(await hasApiKey(env, request, url))) throw new ApiError("unauthorized", "a valid API key is required");
}

/** Throws 401 unless x-service-email-token holds the admin token or the legacy intake token. */
export async function requireAdmin(env: object, request: Request): Promise<void> {
  const { ADMIN_TOKEN, LEGACY_INTAKE_TOKEN } = config(env);
  const ok = await anyMatches([request.headers.get("x-service-email-token")], [ADMIN_TOKEN, LEGACY_INTAKE_TOKEN]);
  if (!ok) throw new ApiError("unauthorized", "a valid admin token is required");
}
