// A small web site on loopback for the link tests (issue 45): pages written for the project
// (test/fixtures/links/), each a case the guarded fetcher and the article extractor must handle.
//   /news/harbour-ferries-wind  a news article with navigation, an advert and comments around it
//   /blog/briefe                 a blog post in German
//   /                            a home page: a list of headlines and a sign-in form, no article
//   /latin1                      the news article in windows-1252, its charset only in the header
//   /huge                        20 MB of HTML, streamed
//   /hang                        headers, a first chunk, then nothing (a page that never finishes)
//   /to-private                  a redirect to a private address (http://10.0.0.7/)
//   /loop/N                      a chain of redirects, /loop/0 answering the news article
//   /optout                      the news article with X-Robots-Tag: noai
//   /optout-meta                 the news article with <meta name="robots" content="noai">
//   /report.pdf                  a PDF
// Used by vitest (scripts/links-site-setup.mjs provides its URL) and the browser tests.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const fixture = (name) => readFileSync(new URL(`../test/fixtures/links/${name}.html`, import.meta.url), "utf8");

/** `text` in windows-1252: Latin-1, with the dash and curly quotes at their 0x80-0x9F places. */
function windows1252(text) {
  const extra = { "—": 0x97, "“": 0x93, "”": 0x94 };
  return Buffer.from([...text].map((c) => extra[c] ?? c.charCodeAt(0)));
}

/** Starts the site on a free loopback port; resolves to its base URL and a close function. */
export async function startLinksSite() {
  const news = fixture("news");
  const hanging = new Set();
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://site").pathname;
    const html = (body, headers = {}) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
    if (path === "/news/harbour-ferries-wind") return html(news);
    if (path === "/blog/briefe") return html(fixture("blog"));
    if (path === "/") return html(fixture("home"));
    if (path === "/latin1") {
      const text = news.replace('<meta charset="utf-8">', "").replace("ninety years", "ninety years — “café” crème");
      return res.writeHead(200, { "content-type": "text/html; charset=windows-1252" }).end(windows1252(text));
    }
    if (path === "/optout") return html(news, { "x-robots-tag": "noai, noimageai" });
    if (path === "/optout-meta") return html(news.replace("<head>", '<head><meta name="robots" content="noai">'));
    if (path === "/report.pdf") return res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4\n%\u00e2\u00e3\n");
    if (path === "/to-private") return res.writeHead(302, { location: "http://10.0.0.7/admin" }).end();
    const loop = /^\/loop\/(\d+)$/.exec(path);
    if (loop) {
      const n = Number(loop[1]);
      return n === 0 ? html(news) : res.writeHead(302, { location: `/loop/${n - 1}` }).end();
    }
    if (path === "/huge") {
      res.writeHead(200, { "content-type": "text/html" });
      const chunk = Buffer.alloc(1024 * 1024, "<p>filler</p>");
      let sent = 0;
      const more = () => {
        while (sent < 20) {
          sent++;
          if (!res.write(chunk)) return res.once("drain", more);
        }
        res.end();
      };
      return more();
    }
    if (path === "/hang") {
      hanging.add(res);
      res.writeHead(200, { "content-type": "text/html" });
      return res.write("<!doctype html><html><body><p>");
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
