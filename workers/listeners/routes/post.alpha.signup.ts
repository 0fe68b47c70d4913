import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { alphaSignups, database } from "../../db/index";
import { Email } from "../../kernel/fields";

const AlphaSignupRequest = named(
  "AlphaSignupRequest",
  v.object({
    email: Email,
    name: v.pipe(v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))), v.description("How to address the person.")),
    note: v.pipe(v.optional(v.pipe(v.string(), v.maxLength(2000))), v.description("Anything they want to tell us.")),
  }),
);

const AlphaSignupResponse = named(
  "AlphaSignupResponse",
  v.object({
    email: v.string(),
    already_registered: v.pipe(v.boolean(), v.description("True when this e-mail signed up before; nothing changed.")),
  }),
);

export const alphaSignup = route({
  method: "POST",
  path: "/v1/alpha/signup",
  tag: "listeners",
  summary: "Join the alpha; a repeat also answers 201 with already_registered true",
  auth: "none",
  rateLimit: "read",
  body: AlphaSignupRequest,
  responses: { 201: { description: "Registered (now or before)", schema: AlphaSignupResponse } },
  async handle({ env, body }) {
    const inserted = await database(env)
      .insert(alphaSignups)
      .values({ email: body.email, name: body.name, note: body.note })
      .onConflictDoNothing({ target: alphaSignups.email })
      .returning({ id: alphaSignups.id });
    const out: v.InferOutput<typeof AlphaSignupResponse> = { email: body.email, already_registered: inserted.length === 0 };
    return Response.json(out, { status: 201 });
  },
});
