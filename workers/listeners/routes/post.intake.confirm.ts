import { INTAKE_CONFIRM_PATH } from "../intake-address";
import { confirmIntake } from "../pages/intake-confirm";
import { page } from "../../web/page-route";

/** POST {WEB_URL}/intake/confirm: confirms the intake address. */
export const postIntakeConfirm = page({
  method: "POST",
  path: INTAKE_CONFIRM_PATH,
  summary: "Confirms an intake address",
  auth: "none",
  handle: ({ request, env }) => confirmIntake(request, env),
});
