import { eq } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../../core/route";
import { database, listeners, PLANS } from "../../db";
import { requireListener } from "../../kernel/listener-tokens";
import { TokenParams } from "../../kernel/fields";

const Plan = v.pipe(v.picklist(PLANS), v.description("free: agents' audio starts with a sponsor pre-roll; plus and pro: bare audio."));

export const putListenerPlan = route({
  method: "PUT",
  path: "/v1/admin/listeners/:token/plan",
  tag: "admin",
  summary: "Set a listener's plan (free, plus, pro)",
  auth: "admin",
  params: TokenParams,
  body: v.object({ plan: Plan }),
  responses: {
    200: { description: "The plan now in force", schema: v.object({ plan: Plan }) },
    404: { description: "No listener with this token" },
  },
  async handle({ env, params, body }) {
    const db = database(env);
    const listener = await requireListener(db, params.token);
    await db.update(listeners).set({ plan: body.plan, updatedAt: new Date() }).where(eq(listeners.id, listener.id));
    return Response.json({ plan: body.plan }, { headers: { "Cache-Control": "no-store" } });
  },
});
