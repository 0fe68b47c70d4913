import type * as v from "valibot";
import { WEBHOOK_EVENTS } from "../../kernel/webhook-events";
import { escapeHtml } from "../../web/page";
import { type Studio, studioForm, studioShell } from "../../studio/layout";
import { publisherPath } from "../../studio/paths";
import type { CreatedWebhookEndpoint, WebhookDeliveryView, WebhookEndpointView } from "../endpoints";

/**
 * The studio's page of a publisher's outbound webhooks (docs/publishers.md "Webhooks"): the endpoints,
 * adding and removing one (editors), the secret of a new one shown once, and the delivery log.
 */

/** Deliveries the page's log shows: the newest. */
export const DELIVERY_LOG_PAGE = 50;

type Endpoint = v.InferOutput<typeof WebhookEndpointView>;
type Delivery = v.InferOutput<typeof WebhookDeliveryView>;

/** What the page shows besides the endpoints and the log: a new endpoint's secret, or why adding one failed. */
export interface WebhooksNotice {
  created?: v.InferOutput<typeof CreatedWebhookEndpoint>;
  problems?: string[];
  /** The URL the editor typed, given back when it was refused. */
  url?: string;
}

/** A URL that may break after each slash on a phone's narrow screen. */
const breakable = (url: string) => escapeHtml(url).replaceAll("/", "/<wbr>");

/** A long token (a secret, an id) that may break every 16 characters, so no phone scrolls sideways. */
const token = (text: string) => (text.match(/.{1,16}/g) ?? []).map(escapeHtml).join("<wbr>");

const time = (iso: string | null) => (iso ? `<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>` : "—");

function endpointItem(studio: Studio, e: Endpoint): string {
  const remove =
    studio.role === "editor"
      ? studioForm(
          studio.member,
          publisherPath(studio.publisher, `/webhooks/${encodeURIComponent(e.id)}/remove`),
          `<button type="submit" class="danger" aria-label="${escapeHtml(`Remove ${e.url}`)}">Remove</button>`,
          ' class="inline"',
        )
      : "";
  return `<li><code>${breakable(e.url)}</code><br><span class="note">${escapeHtml(e.events.join(", "))} · added ${time(e.created_at)} · <code>${token(e.id)}</code></span> ${remove}</li>`;
}

function addForm(studio: Studio, notice: WebhooksNotice): string {
  if (studio.role !== "editor") return "<p>An editor may add and remove endpoints.</p>";
  const events = WEBHOOK_EVENTS.map((e) => `<label><input type="checkbox" name="events" value="${e}" checked> ${e}</label>`).join("");
  const problems = notice.problems?.length
    ? `<div class="warn" role="alert"><p>The endpoint was not added:</p><ul>${notice.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join("")}</ul></div>`
    : "";
  return `<section aria-labelledby="add"><h2 id="add">Add an endpoint</h2>${problems}${studioForm(
    studio.member,
    publisherPath(studio.publisher, "/webhooks"),
    `<p><label>URL<br><input type="url" name="url" required maxlength="2048" value="${escapeHtml(notice.url ?? "")}" placeholder="https://cms.example/hooks/narration"></label></p>
<fieldset><legend>Events</legend>${events}</fieldset><p><button class="primary" type="submit">Add endpoint</button></p>`,
  )}</section>`;
}

function createdNotice(created: WebhooksNotice["created"]): string {
  if (!created) return "";
  return `<div class="notice" role="status"><p>Endpoint added. Its signing secret is shown <strong>only this once</strong>: keep it where your receiver verifies the webhook-signature header.</p>
<p>Signing secret: <code id="webhook-secret">${created.secret
    .match(/.{1,16}/g)
    ?.map(escapeHtml)
    .join("<wbr>")}</code></p></div>`;
}

function deliveryItem(d: Delivery, urls: Map<string, string>): string {
  const retries = Math.max(0, d.attempts - 1);
  const answer = d.last_status === null ? "no answer" : `HTTP ${d.last_status}`;
  return `<li><strong data-state="${d.state}">${escapeHtml(d.state)}</strong> · ${escapeHtml(d.event)} · ${breakable(urls.get(d.endpoint_id) ?? `removed endpoint ${d.endpoint_id}`)}
<br><span class="note">${d.attempts} attempt${d.attempts === 1 ? "" : "s"} (${retries} ${retries === 1 ? "retry" : "retries"}) · last: ${answer}${
    d.last_error ? ` · ${escapeHtml(d.last_error)}` : ""
  } · sent ${time(d.created_at)}${d.delivered_at ? ` · delivered ${time(d.delivered_at)}` : ""} · webhook-id <code>${token(d.id)}</code></span></li>`;
}

/** /studio/{publisher}/webhooks. */
export function webhooksPage(env: object, studio: Studio, endpoints: Endpoint[], deliveries: Delivery[], notice: WebhooksNotice = {}): Response {
  const urls = new Map(endpoints.map((e) => [e.id, e.url]));
  const list = endpoints.length ? `<ul class="endpoints">${endpoints.map((e) => endpointItem(studio, e)).join("")}</ul>` : "<p>No endpoints yet.</p>";
  const log = deliveries.length ? `<ol class="deliveries">${deliveries.map((d) => deliveryItem(d, urls)).join("")}</ol>` : "<p>Nothing was sent yet.</p>";
  const body = `<p>The platform POSTs <code>narration.ready</code>, <code>narration.failed</code> and <code>narration.awaiting_review</code> to each endpoint, signed by the Standard Webhooks specification, and retries a failed delivery with backoff for about 21 hours.</p>
${createdNotice(notice.created)}<section aria-labelledby="endpoints"><h2 id="endpoints">Endpoints</h2>${list}</section>${addForm(studio, notice)}
<section aria-labelledby="log"><h2 id="log">Delivery log</h2>${log}</section>`;
  return studioShell(env, {
    title: "Webhooks",
    studio,
    section: "/webhooks",
    body,
    status: notice.created ? 201 : notice.problems ? 422 : 200,
  });
}
