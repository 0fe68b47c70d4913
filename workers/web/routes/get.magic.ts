import { staticFileRoute } from "../static-files";

/** GET {WEB_URL}/magic: the page that exchanges a mailed magic link's secret (workers/web/static/magic.html). */
export const getMagic = staticFileRoute("/magic", "The magic-link sign-in page");
