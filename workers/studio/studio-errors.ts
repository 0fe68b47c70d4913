import { ApiError } from "../core/errors";
import { seeOther } from "../web/page";
import { pageErrors } from "../web/page-errors";
import { safeNext } from "../web/sign-in";
import { STUDIO_PATHS } from "./paths";

/**
 * The error renderer of the studio's pages (core/route.ts Route.renderErrors): a browser without a
 * live studio session goes to the studio's sign-in and comes back to the page it asked for; every
 * other failure is the web front-end's page (workers/web/page-errors.ts).
 */
export function studioErrors(err: unknown, request: Request, env: Env, url: URL): Response {
  if (err instanceof ApiError && err.code === "unauthorized") {
    const back = request.method === "GET" || request.method === "HEAD" ? `${url.pathname}${url.search}` : STUDIO_PATHS.home;
    return seeOther(`${STUDIO_PATHS.signIn}?${new URLSearchParams({ next: safeNext(back, env) })}`);
  }
  return pageErrors(err, request, env, url);
}
