import { confirmIntakeAddress, INTAKE_CONFIRM_PATH } from "../intake-address";
import { fromOwnOrigin } from "../../core/web-session";
import { escapeHtml, formFields, hiddenInputs, htmlPage } from "../../web/page";

/**
 * The landing of the intake-address confirmation mail (workers/listeners/intake-address.ts): GET shows
 * one button and POST spends the secret, so a mail scanner that fetches the link confirms nothing.
 */

const TITLE = "Confirm your intake address";

/** GET /intake/confirm: the mailed link lands here. */
export function intakeConfirmPage(url: URL): Response {
  const magic = url.searchParams.get("magic") ?? "";
  return htmlPage(
    TITLE,
    `<p>Articles you forward from this mailbox will be kept, privately, in the narration subscription that asked for it.</p>
<form method="post" action="${INTAKE_CONFIRM_PATH}">${hiddenInputs({ magic })}
<p><button class="primary" type="submit">Confirm</button></p></form>
<p class="note">If you did not ask for this, close this page: nothing you send is kept.</p>`,
  );
}

/** POST /intake/confirm: marks the address confirmed. */
export async function confirmIntake(request: Request, env: Env): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return htmlPage(TITLE, "<p>This form must be sent from this site's own page.</p>", { status: 403 });
  const field = await formFields(request);
  const confirmed = await confirmIntakeAddress(env, field("magic"));
  if (confirmed.ok) return htmlPage(TITLE, `<p>Done: articles you forward from <strong>${escapeHtml(confirmed.address)}</strong> are now kept.</p>`);
  const gone = confirmed.reason === "used" || confirmed.reason === "expired";
  return htmlPage(TITLE, `<p>This link ${gone ? "was already used or has expired" : "is not valid"}. Set the intake address again to get a new one.</p>`, {
    status: gone ? 410 : 404,
  });
}
