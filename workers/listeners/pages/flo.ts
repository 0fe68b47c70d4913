import * as v from "valibot";
import { database } from "../../db";
import { blockQueue, floView, saveFloBlocks, type FloBlock } from "../flo";
import type { ListenerArticle } from "../listener-articles";
import { LISTENER_VERTICALS } from "../../kernel/verticals";
import { escapeHtml, hiddenInputs, seeOther } from "../../web/page";
import { guardWrite, refusedWrite, type SignedIn } from "./guard";
import { listenPage } from "./layout";
import { noticeOf, withNotice } from "./notices";
import { LISTEN_PATHS } from "./paths";

/**
 * {WEB_URL}/listen/flo: the listener's day in blocks, each with its queue in the order flo/now plays it.
 * Reordering persists the block's manual_order (docs/listeners.md "Flo"): by drag and drop (the script), or by
 * the move up and move down buttons, which are plain forms and so work from the keyboard and without script.
 */

/** How many articles of each block the page shows, and so how many a reorder can place. */
const SHOWN = 10;

const label = new Map(LISTENER_VERTICALS.map((vt) => [vt.slug, vt.label]));

function hours(b: FloBlock): string {
  const h = (n: number) => `${String(n).padStart(2, "0")}:00`;
  return `${h(b.start_hour)}–${h(b.end_hour)}`;
}

function itemHtml(csrf: string, block: FloBlock, a: ListenerArticle, i: number, count: number): string {
  const title = escapeHtml(a.title);
  const move = (direction: "up" | "down", text: string, disabled: boolean) =>
    `<form method="post" action="${LISTEN_PATHS.floMove}">${hiddenInputs({ csrf, block: block.id, slug: a.slug, direction })}<button type="submit" aria-label="Move ${title} ${direction}"${disabled ? " disabled" : ""}>${text}</button></form>`;
  return `<li data-slug="${escapeHtml(a.slug)}"><span>${title}</span> <span class="note">${escapeHtml(label.get(a.vertical) ?? a.vertical)}</span>
${move("up", "↑", i === 0)}${move("down", "↓", i === count - 1)}</li>`;
}

/**
 * The block as this listener hears it: only the topics they follow, all of the block's when they
 * chose none (as their feed does, docs/listeners.md "Flo"). A block none of whose topics they follow
 * has no queue on the page.
 */
function forListener(block: FloBlock, who: SignedIn): FloBlock {
  const chosen = who.listener.verticals;
  return chosen.length ? { ...block, verticals: block.verticals.filter((s) => chosen.includes(s)) } : block;
}

function queueOf(db: ReturnType<typeof database>, who: SignedIn, block: FloBlock): Promise<ListenerArticle[]> {
  const mine = forListener(block, who);
  return mine.verticals.length ? blockQueue(db, who.listener, mine, SHOWN) : Promise.resolve([]);
}

/** A block as a disclosure, open when it is the one playing now, so the page stays short on a phone. */
function blockHtml(csrf: string, block: FloBlock, items: ListenerArticle[], active: boolean): string {
  const heading = `${escapeHtml(block.label)} <span class="note">${hours(block)} · ${escapeHtml(block.tone)}${active ? " · now" : ""} · ${items.length} article${items.length === 1 ? "" : "s"}</span>`;
  const topics = block.verticals.map((s) => escapeHtml(label.get(s) ?? s)).join(", ");
  const list = items.length
    ? `<ol class="flo" data-block="${block.id}" aria-labelledby="block-${block.id}">${items.map((a, i) => itemHtml(csrf, block, a, i, items.length)).join("")}</ol>`
    : `<p class="note">No articles of these topics yet.</p>`;
  return `<details class="flo-block"${active ? " open" : ""}><summary><h2 id="block-${block.id}">${heading}</h2></summary><p class="note">Topics: ${topics}</p>${list}</details>`;
}

async function blocksWithQueues(env: Env, who: SignedIn) {
  const db = database(env);
  const view = await floView(db, who.listener);
  return { view, queues: await Promise.all(view.blocks.map((b) => queueOf(db, who, b))) };
}

/** GET /listen/flo */
export async function floPage(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const { view, queues } = await blocksWithQueues(env, who);
  const followed = view.blocks.filter((b) => forListener(b, who).verticals.length);
  const others = view.blocks.filter((b) => !followed.includes(b));
  const blocks = followed.map((b) => blockHtml(who.session.csrf, forListener(b, who), queues[view.blocks.indexOf(b)], b.id === view.active_block.id)).join("");
  const rest = others.length
    ? `<p class="note">Without your topics: ${others.map((b) => `${escapeHtml(b.label)} (${hours(b)})`).join(", ")}. Follow more topics on <a href="${LISTEN_PATHS.home}">Overview</a> to fill them.</p>`
    : "";
  return listenPage(
    env,
    LISTEN_PATHS.flo,
    "Your flo",
    who.session,
    `${noticeOf(request)}<p>Your day in blocks (time zone ${escapeHtml(view.timezone)}), each with the topics you follow. Open a block, then drag an article, or use its arrows, to set what plays first.</p>
<p class="note" id="order-status" role="status"></p>${blocks}${rest}`,
  );
}

/** The block named by the form and the slugs its page shows now; a reorder may only place these. */
async function shownOf(env: Env, who: SignedIn, blockId: string): Promise<{ block: FloBlock; slugs: string[] } | null> {
  const db = database(env);
  const block = (await floView(db, who.listener)).blocks.find((b) => b.id === blockId);
  if (!block) return null;
  return { block, slugs: (await queueOf(db, who, block)).map((a) => a.slug) };
}

function saveOrder(env: Env, who: SignedIn, block: FloBlock, order: string[]): Promise<void> {
  return saveFloBlocks(database(env), who.listener.id, [{ id: block.id, manual_order: order }]);
}

const Order = v.pipe(
  v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  v.minLength(1),
  v.maxLength(SHOWN),
  v.check((slugs) => new Set(slugs).size === slugs.length, "each article may appear once"),
);

/**
 * POST /listen/flo/order (the script, after a drop): the block's articles in their new order. Only
 * articles the block's page shows may be placed; anything else changes nothing. The script asks for
 * JSON; a form gets the page back.
 */
export async function saveFloOrder(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.flo, who);
  if (write instanceof Response) return write;
  const order = v.safeParse(Order, write.fields("order"));
  const shown = await shownOf(env, write, write.field("block"));
  if (!order.success || !shown || !order.output.every((s) => shown.slugs.includes(s))) {
    return refusedWrite(env, LISTEN_PATHS.flo, "That order does not match the page. Reload it and try again.", 422, write.session);
  }
  await saveOrder(env, write, shown.block, order.output);
  if (request.headers.get("Accept")?.includes("application/json"))
    return Response.json({ manual_order: order.output }, { headers: { "Cache-Control": "no-store" } });
  return seeOther(withNotice(LISTEN_PATHS.flo, "order"));
}

/** POST /listen/flo/move: one article one place up or down; the block's shown order becomes its manual_order. */
export async function moveFloItem(request: Request, env: Env, who: SignedIn): Promise<Response> {
  const write = await guardWrite(request, env, LISTEN_PATHS.flo, who);
  if (write instanceof Response) return write;
  const shown = await shownOf(env, write, write.field("block"));
  const direction = write.field("direction");
  const from = shown ? shown.slugs.indexOf(write.field("slug")) : -1;
  const to = direction === "up" ? from - 1 : direction === "down" ? from + 1 : -1;
  if (!shown || from < 0 || to < 0 || to >= shown.slugs.length) {
    return refusedWrite(env, LISTEN_PATHS.flo, "That article cannot move there. Reload the page and try again.", 422, write.session);
  }
  const order = [...shown.slugs];
  [order[from], order[to]] = [order[to], order[from]];
  await saveOrder(env, write, shown.block, order);
  return seeOther(`${withNotice(LISTEN_PATHS.flo, "order")}#block-${shown.block.id}`);
}
