import type { Route } from "../core/route";
import { adminLogin } from "./auth-login";
import { exchangeAdminMagicLink } from "./auth-magic-exchange";
import { postAdminCreator } from "./creators";
import { requestAdminMagicLink } from "./auth-magic-request";
import { runDigest } from "./digest-run";
import { preWarmListener } from "./listener-pre-warm";
import { getLedgerReport } from "./routes/get.admin.ledger.report";
import { cleanupCancelledAudio } from "./narration-cleanup";
import { searchAdminRoutes } from "./search";
import { walletAudit } from "./wallet-audit";

/** Every /v1/admin/* route; each domain's admin endpoints live in a file of this folder named for it. */
export const adminRoutes: Route[] = [
  ...searchAdminRoutes,
  adminLogin,
  requestAdminMagicLink,
  exchangeAdminMagicLink,
  runDigest,
  preWarmListener,
  walletAudit,
  getLedgerReport,
  cleanupCancelledAudio,
  postAdminCreator,
];
