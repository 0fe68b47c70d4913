import * as v from "valibot";
import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { named } from "../core/schema-registry";

/** What both admin sign-ins return: the admin token for the x-service-email-token header. */
export const AdminTokenResponse = named(
  "AdminTokenResponse",
  v.object({
    token: v.pipe(v.string(), v.description("The admin token; send it as x-service-email-token on /v1/admin/*.")),
    header: v.literal("x-service-email-token"),
  }),
);

/** The admin token response, or 503 when no admin token is configured. */
export function adminTokenResponse(env: object): Response {
  const token = config(env).ADMIN_TOKEN;
  if (!token) throw new ApiError("unavailable", "admin sign-in is not configured");
  const body: v.InferOutput<typeof AdminTokenResponse> = { token, header: "x-service-email-token" };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}
