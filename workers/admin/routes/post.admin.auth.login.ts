import * as v from "valibot";
import { config } from "../../core/config";
import { secretsEqual } from "../../core/crypto";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { AdminTokenResponse, adminTokenResponse } from "../admin-token";

const AdminPasswordLoginRequest = named(
  "AdminPasswordLoginRequest",
  v.object({
    email: v.pipe(v.string(), v.maxLength(254), v.description("ADMIN_EMAIL, compared case-insensitively.")),
    password: v.pipe(v.string(), v.maxLength(1024), v.description("ADMIN_PASSWORD.")),
  }),
);

export const adminLogin = route({
  method: "POST",
  path: "/v1/admin/auth/login",
  tag: "admin-auth",
  summary: "Exchange the admin e-mail and password for the admin token",
  auth: "none",
  body: AdminPasswordLoginRequest,
  responses: {
    200: { description: "Signed in", schema: AdminTokenResponse },
    401: { description: "Wrong e-mail or password (the answer does not say which)" },
    503: { description: "ADMIN_EMAIL, ADMIN_PASSWORD or ADMIN_TOKEN is not configured" },
  },
  async handle({ env, body }) {
    const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_TOKEN } = config(env);
    if (!ADMIN_EMAIL || !ADMIN_PASSWORD || !ADMIN_TOKEN) throw new ApiError("unavailable", "admin password login is not configured");
    // Both comparisons always run, in constant time, so neither the answer nor its timing tells which one failed.
    const [emailOk, passwordOk] = await Promise.all([
      secretsEqual(body.email.trim().toLowerCase(), ADMIN_EMAIL.trim().toLowerCase()),
      secretsEqual(body.password, ADMIN_PASSWORD),
    ]);
    if (!(emailOk && passwordOk)) throw new ApiError("unauthorized", "invalid credentials");
    return adminTokenResponse(env);
  },
});
