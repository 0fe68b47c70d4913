import { ApiError } from "../core/errors";
import { enforceRateLimit } from "../core/rate-limit";
import { INTAKE_CONFIRM_PATH } from "../kernel/intake-address";
import { OAUTH_PATHS } from "../kernel/oauth/server";
import { articlePage } from "./article-page";
import { answerConsent, authorizePage } from "./authorize";
import { embedPage } from "./embed";
import { homePage } from "./home";
import { confirmIntake, intakeConfirmPage } from "./intake-confirm";
import { LISTEN_PAGES } from "./listen/pages";
import { oembed, OEMBED_PATH } from "./oembed";
import { escapeHtml, htmlPage } from "./page";
import { confirmPage, confirmSignIn, requestSignIn, safeNext, signInPage, signOut, SIGN_IN_PATHS } from "./sign-in";
import { robots, sitemap } from "./sitemap";
import { serveStaticFile } from "./static-files";

type Page = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

/** The server-rendered pages of the web front-end, by method and path. */
export const PAGES: Record<string, Page> = {
  "GET /": (_request, env) => homePage(env),
  "GET /sitemap.xml": (_request, env) => sitemap(env),
  "GET /robots.txt": (_request, env) => robots(env),
  [`GET ${OEMBED_PATH}`]: oembed,
  [`GET ${OAUTH_PATHS.authorize}`]: authorizePage,
  [`POST ${OAUTH_PATHS.authorize}`]: answerConsent,
  [`GET ${SIGN_IN_PATHS.request}`]: (request, env) => signInPage(safeNext(new URL(request.url).searchParams.get("next"), env)),
  [`POST ${SIGN_IN_PATHS.request}`]: requestSignIn,
  [`GET ${SIGN_IN_PATHS.confirm}`]: confirmPage,
  [`POST ${SIGN_IN_PATHS.confirm}`]: confirmSignIn,
  [`POST ${SIGN_IN_PATHS.signOut}`]: signOut,
  [`GET ${INTAKE_CONFIRM_PATH}`]: (request) => intakeConfirmPage(new URL(request.url)),
  [`POST ${INTAKE_CONFIRM_PATH}`]: confirmIntake,
  ...LISTEN_PAGES,
};

/** Pages of one article, by method and the path before its slug (the last path segment). */
export const ARTICLE_PAGES: Record<string, (env: Env, slug: string) => Promise<Response>> = {
  "GET /embed/article/": embedPage,
  "GET /articles/": articlePage,
};

/** The page for `method` and `path`: an exact entry of PAGES, else an article page with its slug. */
function pageFor(method: string, path: string): Page | undefined {
  const exact = PAGES[`${method} ${path}`];
  if (exact) return exact;
  const cut = path.lastIndexOf("/") + 1;
  const articlePage = ARTICLE_PAGES[`${method} ${path.slice(0, cut)}`];
  if (!articlePage) return undefined;
  let slug: string;
  try {
    slug = decodeURIComponent(path.slice(cut));
  } catch {
    return undefined;
  }
  return (_request, env) => articlePage(env, slug);
}

async function render(page: Page, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  try {
    // Sign-in mails and consent transactions cost storage: pages share the per-IP read budget.
    await enforceRateLimit(env, request, "read");
    return await page(request, env, ctx);
  } catch (err) {
    if (err instanceof ApiError) return htmlPage("Please wait", `<p>${escapeHtml(err.message)}</p>`, { status: err.status, headers: err.headers });
    // As the API's renderer does: the class and message only, never a stack or bound values.
    console.error(`page failed: ${err instanceof Error ? err.name : typeof err}`);
    return htmlPage("Something went wrong", "<p>Try again in a moment.</p>", { status: 500 });
  }
}

/** The response of a web page or static file, or undefined when the request is for none of them. */
export function serveWebPage(request: Request, url: URL, env: Env, ctx: ExecutionContext): Response | Promise<Response> | undefined {
  const file = serveStaticFile(request, url);
  if (file) return file;
  // HEAD is GET without the body (RFC 9110 §9.3.2): link checkers and oEmbed consumers send it.
  const head = request.method === "HEAD";
  const page = pageFor(head ? "GET" : request.method, url.pathname);
  if (!page) return undefined;
  return head ? render(page, request, env, ctx).then((res) => new Response(null, res)) : render(page, request, env, ctx);
}
