import { staticFileRoute } from "../static-files";

/** GET {WEB_URL}/favicon.svg: the site's icon. */
export const getFavicon = staticFileRoute("/favicon.svg", "The site's icon");
