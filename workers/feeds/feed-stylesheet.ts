import { podcastApps } from "../kernel/public-urls";
import { escapeHtml as escapeXml } from "../core/text";

/**
 * The XSL stylesheet every feed names (rss.ts), so a feed URL opened in a browser shows a readable
 * page: what the feed is, one-tap buttons for podcast apps, the address to copy and the episodes.
 * Podcast apps ignore the processing instruction and read the same RSS. Browsers apply it only to a
 * document they take for XML, so a browser's request gets the feed as application/xml (forBrowser
 * in feed-response.ts); only a same-origin stylesheet applies, hence its place among the feeds.
 *
 * The apps' links are those of podcastApps (workers/kernel/public-urls.ts), turned into XSLT: each is
 * built for a marker address, and the marker is then replaced by the feed's own address (its
 * atom:link rel="self") without its scheme, or percent-encoded as encodeURIComponent writes it.
 */

const MARK = "FEED-ADDRESS-MARK";
const ENCODED_MARK = encodeURIComponent(`https://${MARK}`);

/** One app's link as an XSLT attribute value template over the variables $bare and $encoded. */
function linkTemplate(href: string): string {
  return escapeXml(href.replace(ENCODED_MARK, "{$encoded}").replace(MARK, "{$bare}"));
}

const APP_LINKS = podcastApps(`https://${MARK}`)
  .map((app) => `<li><a href="${linkTemplate(app.href)}">${escapeXml(app.name)}</a></li>`)
  .join("");

/**
 * The page's look, inline: the stylesheet is the only file the transform may load (no script runs),
 * and a feed is served from the API's origin, not the site's.
 */
const STYLE = `*{box-sizing:border-box}body{font:17px/1.55 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}
main{max-width:46rem;margin:0 auto;padding:1rem}a{color:#0b57d0}h1{line-height:1.2;margin:.2rem 0}
.kind{color:#555;margin:0}.cover{float:right;width:8rem;height:8rem;margin:0 0 1rem 1rem;border-radius:8px}
.apps{display:flex;flex-wrap:wrap;gap:.5rem;padding:0;list-style:none}
.apps a{display:inline-block;padding:.4em .9em;border:1px solid #0b57d0;border-radius:999px;text-decoration:none}
.warn{background:#fff4d6;padding:.6em .8em;border-radius:6px}.note{color:#555;font-size:.92em}
input{font:inherit;width:100%;padding:.35em}ol{padding-left:1.4rem}li{margin:.35rem 0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
@media (prefers-color-scheme:dark){body{background:#121214;color:#ececf0}a{color:#8ab4f8}.apps a{border-color:#8ab4f8}
.kind,.note{color:#b4b4bc}.warn{background:#3d3320}input{background:#1d1d20;color:#ececf0;border:1px solid #55555c}}`;

/** The stylesheet's text (XSLT 1.0, which every browser that still runs XSLT supports). */
export const FEED_STYLESHEET = `<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:atom="http://www.w3.org/2005/Atom"
  xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" exclude-result-prefixes="atom itunes podcast">
<xsl:output method="html" encoding="UTF-8" doctype-system="about:legacy-compat"/>
<xsl:variable name="self" select="/rss/channel/atom:link[@rel='self']/@href"/>
<xsl:variable name="bare" select="substring-after($self, '://')"/>
<xsl:variable name="encoded"><xsl:call-template name="encode"><xsl:with-param name="text" select="$self"/></xsl:call-template></xsl:variable>
<xsl:variable name="private" select="/rss/channel/podcast:locked = 'yes'"/>
<!-- encodeURIComponent over a feed address: of what it may hold (scheme, host, port, path of
     unreserved characters and base64url tokens), only ":" and "/" are escaped. -->
<xsl:template name="encode">
<xsl:param name="text"/>
<xsl:if test="$text">
<xsl:variable name="c" select="substring($text, 1, 1)"/>
<xsl:choose><xsl:when test="$c = ':'">%3A</xsl:when><xsl:when test="$c = '/'">%2F</xsl:when><xsl:otherwise><xsl:value-of select="$c"/></xsl:otherwise></xsl:choose>
<xsl:call-template name="encode"><xsl:with-param name="text" select="substring($text, 2)"/></xsl:call-template>
</xsl:if>
</xsl:template>
<xsl:template match="/">
<html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>
<meta name="robots" content="noindex"/>
<title><xsl:value-of select="/rss/channel/title"/> · podcast feed</title><style>${STYLE}</style></head>
<body><main>
<img class="cover" alt="" src="{/rss/channel/itunes:image/@href}"/>
<p class="kind">Podcast feed</p>
<h1><xsl:value-of select="/rss/channel/title"/></h1>
<p><xsl:value-of select="/rss/channel/description"/></p>
<xsl:if test="$private"><p class="warn">This is a private feed: its address works like a password. Add it to your own podcast app and share it with nobody.</p></xsl:if>
<h2 id="subscribe">Subscribe</h2>
<p>This address is a podcast feed, made for podcast apps. Open it in yours with one tap:</p>
<ul class="apps" aria-labelledby="subscribe">${APP_LINKS}</ul>
<p><label for="feed-url">Or copy this address into any podcast app:</label></p>
<input id="feed-url" type="text" readonly="readonly" value="{$self}"/>
<h2>Episodes</h2>
<xsl:choose>
<xsl:when test="/rss/channel/item"><ol><xsl:for-each select="/rss/channel/item">
<li><a href="{link}"><xsl:value-of select="title"/></a> <span class="note"> · <xsl:value-of select="substring(pubDate, 1, 16)"/></span></li>
</xsl:for-each></ol></xsl:when>
<xsl:otherwise><p>No episodes yet.</p></xsl:otherwise>
</xsl:choose>
<p class="note"><a href="{/rss/channel/link}">Narration</a>: articles, read aloud.</p>
</main></body></html>
</xsl:template>
</xsl:stylesheet>
`;
