import { AuthorizationError, authorizationErrorRedirect, type AuthRequest } from "@cloudflare/workers-oauth-provider";
import type { GrantProps } from "./bearer";
import { ClientMetadataError, keepAllowedClient, metadataDocumentHost, resolveClientMetadataDocument } from "./client-metadata";
import { grantUserId, type GrantMetadata, scopesAllowed } from "./grants";
import { offeredScopes, SCOPE_NAMES, SCOPES, type Scope } from "./scopes";
import { OAUTH_PATHS, oauthApi } from "./server";
import { escapeHtml, formFields, hiddenInputs, htmlPage } from "../web/page";
import { csrfMatches, fromOwnOrigin, type Session, type SignedIn } from "../core/web-session";
import { signInPage, SIGN_IN_PATHS } from "../web/sign-in";

/**
 * The consent page of the OAuth authorization endpoint, {WEB_URL}/oauth/authorize (README
 * "OAuth 2.1"). The provider validates the request (client, exact redirect URI, PKCE S256); the
 * listener signs in by magic link, sees who asks, where the access goes and what it allows, and
 * answers Allow or Deny. The request itself waits server-side under the provider's consent handle,
 * bound to this browser by a cookie and usable once, so the form carries only that handle and the
 * session's form token.
 */

/** RFC 6749 §4.1.2.1: redirect to the client only once the provider has validated its redirect URI. */
function authorizationFailure(error: unknown): Response {
  if (!(error instanceof AuthorizationError)) throw error;
  if (error.redirectTo) return Response.redirect(error.redirectTo, 302);
  return htmlPage("Authorization failed", `<p>${escapeHtml(error.description)}</p><p>Go back to the app and start again.</p>`, { status: 400 });
}

function redirect(location: string, headers: Headers): Response {
  headers.set("Location", location);
  return new Response(null, { status: 302, headers });
}

const scopeList = (scopes: Scope[]) =>
  `<ul>${scopes.map((s) => `<li>${escapeHtml(SCOPES[s])} <span class="note">(${escapeHtml(s)})</span></li>`).join("")}</ul>`;

/**
 * What the page asks for: every scope of the request when the app holds nothing yet; once the listener has
 * allowed it some (an app stepping up after an insufficient_scope challenge, MCP authorization "Scope
 * Challenge Handling"), only what is new, beside what it keeps.
 */
function scopesAsked(scopes: Scope[], allowed: Scope[]): string {
  if (allowed.length === 0) return `<p>It will be able to:</p>${scopeList(scopes)}`;
  const fresh = scopes.filter((s) => !allowed.includes(s));
  const asks = fresh.length > 0 ? `<p>It now also asks to:</p>${scopeList(fresh)}` : "<p>It asks for nothing new.</p>";
  return `${asks}<p>You already allowed it to:</p>${scopeList(allowed)}`;
}

/**
 * Who the app says it is: a Client ID Metadata Document client is described by its own site, whose host the
 * listener sees (MCP authorization, "Client ID Metadata Documents": show the client's hostname); a registered
 * one named itself.
 */
function identity(documentHost: string | null): string {
  if (documentHost) return `Its name and addresses are published by <strong>${escapeHtml(documentHost)}</strong>: trust it as far as you trust that site.`;
  return "This app registered itself: its name is not verified.";
}

function consentBody(
  session: Session,
  request: AuthRequest,
  clientName: string,
  documentHost: string | null,
  redirectHost: string,
  loopback: boolean,
  scopes: Scope[],
  allowed: Scope[],
  handle: string,
): string {
  const name = escapeHtml(clientName);
  const host = escapeHtml(redirectHost);
  return `<p><strong>${name}</strong>${documentHost ? ` <span class="note">(${escapeHtml(documentHost)})</span>` : ""} asks to act for you on Narration.</p>
<p>Its access will be sent to <strong>${host}</strong>. ${identity(documentHost)}</p>
${loopback ? '<p class="warn">That is an app on your own computer. Allow only if you just started signing in from it.</p>' : ""}
${scopesAsked(scopes, allowed)}
<form method="post" action="${OAUTH_PATHS.authorize}">${hiddenInputs({ handle, csrf: session.csrf })}
<p><button class="primary" type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></p></form>
<p class="note">You can take this access back at any time. Client id: ${escapeHtml(request.clientId)}</p>
<form method="post" action="${SIGN_IN_PATHS.signOut}">${hiddenInputs({ csrf: session.csrf, next: "/" })}
<p class="note">Signed in as ${escapeHtml(session.email)}. <button type="submit">Not you? Sign out</button></p></form>`;
}

/** GET /oauth/authorize: validate, sign in if needed, then show the consent page; `who` is the route table's. */
export async function authorizePage(request: Request, env: Env, who: SignedIn | null): Promise<Response> {
  const api = oauthApi(env);
  let authRequest: AuthRequest;
  try {
    // A client_id that is the URL of the client's metadata document is fetched and known to the provider first.
    await resolveClientMetadataDocument(env, new URL(request.url).searchParams.get("client_id") ?? "");
  } catch (error) {
    if (!(error instanceof ClientMetadataError)) throw error;
    // Never redirected: until the document is good, nothing says where the app's redirect URIs are.
    return htmlPage(
      "Authorization failed",
      `<p>This app's client metadata document cannot be used: ${escapeHtml(error.message)}.</p><p>Go back to the app.</p>`,
      { status: 400 },
    );
  }
  try {
    authRequest = await api.parseAuthRequest(request);
  } catch (error) {
    return authorizationFailure(error);
  }
  const scopes = offeredScopes(authRequest.scope);
  if (!Array.isArray(scopes)) {
    return Response.redirect(authorizationErrorRedirect(authRequest, "invalid_scope", `unknown scope: ${scopes.unknown.join(" ")}`), 302);
  }
  const session = who?.session;
  const url = new URL(request.url);
  if (!session) return signInPage(url.pathname + url.search);
  // Described first: a failed lookup then leaves nothing behind in KV.
  const details = await api.describeConsent(authRequest);
  const consent = await api.beginConsent(authRequest);
  const allowed = await scopesAllowed(env, session.listenerId, authRequest.clientId);
  const documentHost = metadataDocumentHost(env, authRequest.clientId);
  const body = consentBody(
    session,
    authRequest,
    details.clientName,
    documentHost,
    details.redirectHost,
    details.redirectIsLoopback,
    scopes,
    allowed,
    consent.handle,
  );
  return htmlPage(`Allow ${details.clientName}?`, body, { headers: consent.headers });
}

/** POST /oauth/authorize: the listener's answer. Allow issues the code; Deny returns error=access_denied. */
export async function answerConsent(request: Request, env: Env, who: SignedIn | null): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return htmlPage("Authorization refused", "<p>This form must be sent from this site's own page.</p>", { status: 403 });
  const field = await formFields(request);
  const session = who?.session;
  if (!session) return htmlPage("Signed out", "<p>You were signed out. Go back to the app and start again.</p>", { status: 401 });
  if (!(await csrfMatches(session, field("csrf"))))
    return htmlPage("Authorization refused", "<p>This form is out of date. Go back to the app and start again.</p>", { status: 403 });
  const api = oauthApi(env);
  try {
    if (field("decision") !== "allow") {
      const denied = await api.denyConsent(request, field("handle"));
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const approved = await api.approveConsent(request, field("handle"));
    // The stored request passed offeredScopes on the GET that began this consent. The new grant replaces the
    // app's earlier ones (the provider revokes them), so it keeps what the listener allowed it before.
    const asked = offeredScopes(approved.request.scope) as Scope[];
    const kept = await scopesAllowed(env, session.listenerId, approved.request.clientId);
    const scopes = SCOPE_NAMES.filter((s) => asked.includes(s) || kept.includes(s));
    const details = await api.describeConsent(approved.request);
    const metadata: GrantMetadata = { clientName: details.clientName, redirectHost: details.redirectHost };
    const props: GrantProps = { listenerId: session.listenerId };
    const { redirectTo } = await api.completeAuthorization({
      request: approved.request,
      userId: grantUserId(session.listenerId),
      metadata,
      scope: scopes,
      props,
    });
    await keepAllowedClient(env, approved.request.clientId);
    return redirect(redirectTo, approved.headers);
  } catch (error) {
    return authorizationFailure(error);
  }
}
