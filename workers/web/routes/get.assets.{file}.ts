import { staticFileRoute } from "../static-files";

/** GET {WEB_URL}/assets/{file}: a built client bundle (content-hashed, immutable). */
export const getAsset = staticFileRoute("/assets/:file", "A built script or style sheet of the web front-end");
