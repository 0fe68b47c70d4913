// Publishes the demo articles through the signed publish webhook, the same path a publisher's CMS
// takes, so seeding is idempotent by the webhook's own rule: an unchanged article is not rendered again.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { readVars } from "./local.mjs";

const DAY_MS = 86_400_000;

/** Signs `body` as docs/narration-api.md "Publish webhook" specifies: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>. */
export function signature(secret, body, now = Date.now()) {
  const t = Math.floor(now / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** Demo articles as PublishRequests; publication times are stable within a day, so re-seeding changes nothing. */
export function seedArticles(today = Date.now()) {
  const midnight = Math.floor(today / DAY_MS) * DAY_MS;
  const articles = JSON.parse(readFileSync(new URL("./seed/articles.json", import.meta.url), "utf8"));
  return articles.map(({ days_ago, ...a }, i) => ({
    ...a,
    published_at: new Date(midnight - days_ago * DAY_MS + ((i * 37) % 600) * 60_000).toISOString(),
  }));
}

/** Publishes every demo article to the service at `base`. */
export async function seed(base, secret = readVars().PUBLISH_WEBHOOK_SECRET) {
  let published = 0;
  for (const article of seedArticles()) {
    const body = JSON.stringify(article);
    const res = await fetch(`${base}/v1/webhook/publish`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-legacy-signature": signature(secret, body) },
      body,
    });
    if (!res.ok) throw new Error(`publishing ${article.slug} answered ${res.status}: ${await res.text()}`);
    published++;
  }
  console.log(`seeded ${published} demo articles (unchanged ones are left as they are)`);
}

/** The demo member of the studio: an editor of the first demo publisher (docs/publishers.md "Try it on one machine"). */
export const DEMO_MEMBER = { email: "editor@example.com", role: "editor", publisher: "The Tidewater Dispatch" };

/** Adds the demo member to its publisher's studio (idempotent: the same member again changes nothing). */
export async function seedStudioMember(base, adminToken = readVars().ADMIN_TOKEN) {
  const res = await fetch(`${base}/v1/admin/publishers/${encodeURIComponent(DEMO_MEMBER.publisher)}/members`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-email-token": adminToken },
    body: JSON.stringify({ email: DEMO_MEMBER.email, role: DEMO_MEMBER.role }),
  });
  if (!res.ok) throw new Error(`adding the studio's demo member answered ${res.status}: ${await res.text()}`);
}
