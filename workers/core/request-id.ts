import { AsyncLocalStorage } from "node:async_hooks";

/** The request being handled: Cloudflare's Ray ID when it has one, and the id once it was asked for. */
interface RequestScope {
  ray: string | null;
  id?: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `handle` as the handling of `request`, whose id is then what requestId() answers anywhere
 * below it without being passed down: error bodies, log lines and the render jobs it creates carry
 * it, so a user's report leads to the log line.
 */
export function withRequestId<T>(request: Request, handle: () => T): T {
  return scope.run({ ray: request.headers.get("cf-ray") }, handle);
}

/**
 * The id of the request being handled: its cf-ray header on Cloudflare, otherwise a random UUID made
 * the first time it is asked for (most requests never are: a successful read logs nothing). Null
 * outside a request (queue batches, crons).
 */
export function requestId(): string | null {
  const current = scope.getStore();
  if (!current) return null;
  current.id ??= current.ray ?? crypto.randomUUID();
  return current.id;
}
