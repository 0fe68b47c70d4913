import type { ValidationIssue } from "../../core/errors";
import { escapeHtml } from "../../web/page";
import { type Studio, studioShell } from "../../studio/layout";
import { publisherPath } from "../../studio/paths";
import type { Stats } from "../stats-query";

/**
 * The studio's page of a publisher's listening numbers (docs/publishers.md "Listening numbers"). The
 * charts are drawn here as SVG and HTML, not by a chart library in the browser: the pages allow no
 * inline script or style (web/site-page.ts), nothing is downloaded at run time, and each chart is
 * readable without sight: the days' chart is an image with a text alternative beside a table of the
 * same numbers, and the articles' and apps' bars are lists whose words are the numbers.
 */

/** The periods offered as links: the last N days up to today. */
const PERIODS = [7, 30, 90, 365] as const;
const DAY_MS = 86_400_000;

/** "1 download", "2 downloads". */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const daysBefore = (to: string, n: number) => new Date(Date.parse(`${to}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

function statsHref(studio: Studio, query: Record<string, string>): string {
  return `${publisherPath(studio.publisher, "/stats")}?${new URLSearchParams(query)}`;
}

/** The period's form (two dates) and the usual periods as links. */
function periodChoice(studio: Studio, from: string, to: string): string {
  const today = new Date().toISOString().slice(0, 10);
  const links = PERIODS.map((n) => {
    const query = { from: daysBefore(today, n - 1), to: today };
    const here = query.from === from && query.to === to ? ' aria-current="page"' : "";
    return `<li><a href="${escapeHtml(statsHref(studio, query))}"${here}>Last ${n} days</a></li>`;
  }).join("");
  return `<section aria-labelledby="period"><h2 id="period">Period</h2><ul class="periods">${links}</ul>
<form method="get" action="${escapeHtml(publisherPath(studio.publisher, "/stats"))}"><p><label>From <input type="date" name="from" required value="${escapeHtml(from)}"></label>
<label>to <input type="date" name="to" required value="${escapeHtml(to)}"></label> <button type="submit">Show</button></p></form></section>`;
}

/** One bar of a list chart: its share of the largest as an SVG bar, hidden from assistive technology (the words say it). */
function bar(value: number, max: number): string {
  const width = max > 0 ? Math.max((value / max) * 100, value > 0 ? 1 : 0) : 0;
  return `<svg class="bar" width="100%" height="10" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect width="100" height="10" fill="#eeeeee"/><rect width="${width.toFixed(2)}" height="10" fill="#1f5f8b"/></svg>`;
}

/** The downloads and listeners of each day as columns: an image with its text alternative, and the table of the same numbers. */
function daysChart(stats: Stats): string {
  const max = Math.max(1, ...stats.days.map((d) => d.downloads));
  const total = stats.days.reduce((sum, d) => sum + d.downloads, 0);
  const peak = stats.days.reduce((best, d) => (d.downloads > best.downloads ? d : best), stats.days[0]);
  const columns = stats.days
    .map((d, i) => {
      const h = (d.downloads / max) * 100;
      return `<rect x="${i * 10 + 1}" y="${(100 - h).toFixed(2)}" width="8" height="${h.toFixed(2)}" fill="#1f5f8b"><title>${d.date}: ${counted(d.downloads, "download")}</title></rect>`;
    })
    .join("");
  const alt = `${counted(total, "download")} from ${stats.from} to ${stats.to}${total ? `; the most, ${peak.downloads}, on ${peak.date}` : ""}.`;
  const rows = stats.days
    .map(
      (d) =>
        `<tr><th scope="row">${d.date}</th><td>${d.downloads}</td><td>${d.listeners}</td><td>${d.starts}</td><td>${d.completions}</td><td>${d.agent_plays}</td></tr>`,
    )
    .join("");
  return `<section aria-labelledby="days"><h2 id="days">Downloads by day</h2>
<figure><svg class="days-chart" width="100%" height="160" viewBox="0 0 ${stats.days.length * 10} 100" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(alt)}"><line x1="0" y1="100" x2="${stats.days.length * 10}" y2="100" stroke="#333333" stroke-width="1"/>${columns}</svg>
<figcaption>${escapeHtml(alt)} Highest column: ${max}.</figcaption></figure>
<details><summary>The numbers by day</summary><table><caption>Listening by day, ${stats.from} to ${stats.to} (UTC)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Down&shy;loads</th><th scope="col">Listen&shy;ers</th><th scope="col">Starts</th><th scope="col">Com&shy;pleted</th><th scope="col">Agents</th></tr></thead><tbody>${rows}</tbody></table></details></section>`;
}

/** A list chart: each item's name and number in words, with its bar. */
function listChart(id: string, title: string, items: { name: string; value: number; detail?: string }[], empty: string): string {
  const max = Math.max(0, ...items.map((i) => i.value));
  const list = items.length
    ? `<ol class="bars">${items.map((i) => `<li>${escapeHtml(i.name)}: <strong>${i.value}</strong>${i.detail ? ` <span class="note">${escapeHtml(i.detail)}</span>` : ""}${bar(i.value, max)}</li>`).join("")}</ol>`
    : `<p>${empty}</p>`;
  return `<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${list}</section>`;
}

/** /studio/{publisher}/stats: the period, the days' chart and table, the top articles and apps, and the CSV. */
export function statsPage(env: object, studio: Studio, stats: Stats): Response {
  const csv = statsHref(studio, { from: stats.from, to: stats.to, format: "csv" });
  const articles = stats.articles.map((a) => ({
    name: a.title,
    value: a.downloads,
    detail: `${a.downloads === 1 ? "download" : "downloads"} · ${counted(a.starts, "player start")} · ${a.completions} completed`,
  }));
  const apps = stats.apps.map((a) => ({ name: a.name, value: a.downloads, detail: a.downloads === 1 ? "download" : "downloads" }));
  const body = `<p>Downloads are counted by the IAB Podcast Measurement 2.2 rules: once per listener and episode in 24 hours, once a minute of audio reached them, never for a known bot. Days are UTC.</p>
${periodChoice(studio, stats.from, stats.to)}${daysChart(stats)}
<p><a href="${escapeHtml(csv)}" download>Download the days as CSV</a></p>
${listChart("top-articles", "Top articles", articles, "No article was heard in this period.")}${listChart("apps", "Apps", apps, "No downloads in this period.")}`;
  return studioShell(env, { title: "Listening numbers", studio, section: "/stats", body });
}

/** The page with the period's form only, when the period asked for is not valid (422). */
export function statsPeriodProblem(env: object, studio: Studio, issues: ValidationIssue[]): Response {
  const today = new Date().toISOString().slice(0, 10);
  const problems = issues.map((i) => `<li>${escapeHtml(`${i.loc.at(-1)}: ${i.msg}`)}</li>`).join("");
  return studioShell(env, {
    title: "Listening numbers",
    studio,
    section: "/stats",
    status: 422,
    body: `<div class="warn" role="alert"><p>That period cannot be shown:</p><ul>${problems}</ul></div>${periodChoice(studio, daysBefore(today, 29), today)}`,
  });
}
