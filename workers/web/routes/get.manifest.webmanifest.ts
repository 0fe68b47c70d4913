import { staticFileRoute } from "../static-files";

/** GET {WEB_URL}/manifest.webmanifest: the installable web app, whose share target adds a shared page to the listener's feed (/listen/share). */
export const getWebManifest = staticFileRoute("/manifest.webmanifest", "The web app manifest, with its share target");
