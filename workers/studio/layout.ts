import type * as v from "valibot";
import type { StudioSignedIn } from "../core/studio-session";
import { ApiError } from "../core/errors";
import type { RouteInput } from "../core/route";
import { PublisherParams } from "../kernel/fields";
import { csrfMatches, fromOwnOrigin } from "../core/web-session";
import { escapeHtml, formValues, hiddenInputs } from "../web/page";
import { page } from "../web/page-route";
import { refused } from "../listeners/sign-in";
import { siteHeader } from "../web/site-chrome";
import { type AssetName, sitePage } from "../web/site-page";
import { roleIn, type MemberRole } from "./members";
import { publisherPath, STUDIO_PATHS } from "./paths";
import { studioErrors } from "./studio-errors";

/**
 * The studio's shell, shared by every studio page (docs/publishers.md "The studio's pages"): the layout,
 * the navigation and the member guard. A page of a publisher declares itself with `studioPage`,
 * which checks that the signed-in member belongs to that publisher (another's is a 404), that an
 * action's form comes from the studio itself (Origin and the session's form token), and for an
 * editor's action that the member is an editor (a viewer gets a 403).
 */

/** Who is acting on which publisher's studio, as a studio page's handler receives it. */
export interface Studio {
  member: StudioSignedIn;
  publisher: string;
  role: MemberRole;
}

/**
 * The sections of a publisher's studio, in the navigation's order: `path` below /studio/{publisher}.
 * Another section adds its entry here; the pages of listening numbers and webhooks live in their own
 * domains (workers/stats/pages/, workers/webhooks/pages/), which import this shell.
 */
export const STUDIO_SECTIONS: { path: string; label: string }[] = [
  { path: "", label: "Narrations" },
  { path: "/stats", label: "Listening numbers" },
  { path: "/lexicon", label: "Lexicon" },
  { path: "/webhooks", label: "Webhooks" },
  { path: "/settings", label: "Settings" },
];

/** The studio's navigation for `publisher`, marking the section at `current`. */
export function studioNav(studio: Studio, current: string): string {
  const links = STUDIO_SECTIONS.map(({ path, label }) => {
    const here = path === current ? ' aria-current="page"' : "";
    return `<li><a href="${escapeHtml(publisherPath(studio.publisher, path))}"${here}>${escapeHtml(label)}</a></li>`;
  }).join("");
  return `<nav class="studio-nav" aria-label="Studio"><ul>${links}</ul></nav>`;
}

/** The sign-out form, with the session's form token. */
export function signOutForm(member: StudioSignedIn): string {
  return `<form method="post" action="${STUDIO_PATHS.signOut}" class="inline">${hiddenInputs({ csrf: member.csrf })}<button type="submit">Sign out</button></form>`;
}

/** A form of the studio: method POST, the session's form token inside. */
export function studioForm(member: StudioSignedIn, action: string, inner: string, attributes = ""): string {
  return `<form method="post" action="${escapeHtml(action)}"${attributes}>${hiddenInputs({ csrf: member.csrf })}${inner}</form>`;
}

interface Shell {
  title: string;
  body: string;
  /** The publisher's studio and the section shown, for the navigation; none on /studio itself. */
  studio?: Studio;
  section?: string;
  member?: StudioSignedIn;
  scripts?: AssetName[];
  status?: number;
  /** The whole <h1> element, when it carries more than the title (the player's timed words). */
  heading?: string;
}

/** A complete studio page: the site's header and look, the studio's navigation, noindex, never framed or cached. */
export function studioShell(env: object, shell: Shell): Response {
  const who = shell.studio ?? null;
  const member = who?.member ?? shell.member;
  const bar = `<div class="studio-bar"><p>${who ? `<strong>${escapeHtml(who.publisher)}</strong> · ${escapeHtml(who.role)} · ` : ""}${
    member ? `${escapeHtml(member.email)} ${signOutForm(member)}` : ""
  }</p>${who ? studioNav(who, shell.section ?? "") : ""}</div>`;
  return sitePage(env, {
    title: `${shell.title} · Studio`,
    body: `${siteHeader()}<main class="studio">${member ? bar : ""}${shell.heading ?? `<h1>${escapeHtml(shell.title)}</h1>`}${shell.body}</main>`,
    styles: ["site.css", "listen.css"],
    scripts: shell.scripts ?? [],
    noindex: true,
    status: shell.status,
  });
}

/** The member's studio of `publisher`; 404 when they are not its member, 403 when `need` is editor and they are a viewer. */
export async function requireStudio(env: Env, member: StudioSignedIn, publisher: string, need?: "editor"): Promise<Studio> {
  const role = await roleIn(env, publisher, member.email);
  if (!role) throw new ApiError("not_found", "There is no studio of that publisher for you.");
  if (need === "editor" && role !== "editor") throw new ApiError("forbidden", "Only an editor may do this; ask an editor of this publisher.");
  return { member, publisher, role };
}

type Params = v.GenericSchema<{ publisher: string } & Record<string, unknown>, { publisher: string } & Record<string, unknown>>;

interface StudioPageDef<P extends Params> {
  method: "GET" | "POST";
  path: string;
  summary: string;
  params?: P;
  /** For a POST: the role it needs (an action of an editor), or any member's (viewer). */
  role?: "editor" | "viewer";
  handle(
    input: RouteInput<P, undefined, undefined, undefined, "studio"> & {
      studio: Studio;
      /** A form field's first value ("" when absent) and all of its values (checkboxes). */
      field: (name: string) => string;
      fields: (name: string) => string[];
    },
  ): Response | Promise<Response>;
}

/**
 * A page of one publisher's studio (path below /studio/:publisher). A POST is a form of the studio:
 * refused unless sent from the studio's own page with the session's form token (CSRF: SameSite=Lax
 * cookie, Origin and a token bound to the session, OWASP CSRF cheat sheet), and its fields are read
 * once and handed to the handler as `field` and `fields`.
 */
export function studioPage<P extends Params = typeof PublisherParams>(def: StudioPageDef<P>) {
  const { handle, role, ...rest } = def;
  return page<P, "studio">({
    ...rest,
    params: (def.params ?? PublisherParams) as P,
    auth: "studio",
    renderErrors: studioErrors,
    async handle(input) {
      const params = input.params as { publisher: string };
      let fields: (name: string) => string[] = () => [];
      if (def.method === "POST") {
        if (!fromOwnOrigin(input.request, input.env)) return refused();
        fields = await formValues(input.request);
        if (!(await csrfMatches(input.member, fields("csrf")[0] ?? ""))) return refused();
      }
      const studio = await requireStudio(input.env, input.member, params.publisher, role === "editor" ? "editor" : undefined);
      return handle({ ...input, studio, field: (name) => fields(name)[0] ?? "", fields });
    },
  });
}
