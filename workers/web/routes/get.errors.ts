import { errorsPage } from "../errors-page";
import { page } from "../page-route";

/** GET {WEB_URL}/errors: what each error code means; the `docs` link of every error body points into it. */
export const getErrorsPage = page({
  method: "GET",
  path: "/errors",
  summary: "The error codes and what to do about each",
  auth: "none",
  handle: ({ env }) => errorsPage(env),
});
