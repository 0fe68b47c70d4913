import { describe, expect, it } from "vitest";
import { call, jsonBody } from "./support/client";
import { subscribeVia } from "./support/listeners";

/** docs/api-conventions.md "Inactive listeners": `active: false` stops the daily digest and nothing else. */
describe("an inactive listener's token keeps working on every listener route", () => {
  it("reads preferences and flo, forwards an article and gets the personalized stories feed", async () => {
    const { token } = await subscribeVia("inactive@example.test", ["tech"]);
    expect((await call(`/v1/listeners/${token}`, jsonBody("PATCH", { active: false }))).status).toBe(200);

    expect((await call(`/v1/listeners/${token}`)).status).toBe(200);
    expect((await call(`/v1/listener/${token}/flo`)).status).toBe(200);
    const forward = await call(`/v1/listeners/${token}/forward`, jsonBody("POST", { title: "Kept", text: "Still forwarding." }));
    expect(forward.status).toBe(201);
    expect((await call(`/v1/stories/feed?personalized=true&listener_token=${token}`)).status).toBe(200);
  });
});
