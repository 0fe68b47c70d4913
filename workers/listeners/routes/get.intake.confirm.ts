import { INTAKE_CONFIRM_PATH } from "../intake-address";
import { intakeConfirmPage } from "../pages/intake-confirm";
import { page } from "../../web/page-route";

/** GET {WEB_URL}/intake/confirm: the intake-address confirmation link lands here. */
export const getIntakeConfirm = page({
  method: "GET",
  path: INTAKE_CONFIRM_PATH,
  summary: "The landing page of an intake-address confirmation",
  auth: "none",
  handle: ({ url }) => intakeConfirmPage(url),
});
