// vitest globalSetup: the link tests' web site on loopback (scripts/links-site.mjs), at the URL
// provided as "linksSiteUrl".
import { startLinksSite } from "./links-site.mjs";

export default async function setup({ provide }) {
  const site = await startLinksSite();
  provide("linksSiteUrl", site.url);
  return site.close;
}
