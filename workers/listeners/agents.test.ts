import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { bearerGrant } from "../oauth/bearer";
import { tokensFor } from "../../test/support/oauth-agent";
import { subscribeVia } from "../../test/support/listeners";

/** The agents a listener allowed: GET and DELETE /v1/listeners/{token}/agents, and revocation by rotate and delete (issue 13). */

/** Whether the access token still acts for someone: its grant, or the status the API answers. */
async function accessOf(token: string) {
  const req = new Request(`${testVars.BASE_URL}/mcp/v1`, { headers: { Authorization: `Bearer ${token}` } });
  return bearerGrant(req, env).then(
    (grant) => grant,
    (err: { status: number }) => err.status,
  );
}

const agents = async (token: string) => {
  const res = await call(`/v1/listeners/${token}/agents`);
  return {
    status: res.status,
    body: (await res.json()) as { agents: { grant_id: string; client_id: string; client_name: string; redirect_host: string; scopes: string[] }[] },
  };
};

describe("GET /v1/listeners/{token}/agents", () => {
  it("lists the agents the listener allowed, with name, redirect host and scopes; no one else's", async () => {
    const { listener, client } = await tokensFor("list@example.test");
    const other = await subscribeVia("other@example.test");
    const mine = await agents(listener.token);
    expect(mine.status).toBe(200);
    expect(mine.body.agents).toEqual([
      expect.objectContaining({
        client_id: client.client_id,
        client_name: "Test Agent",
        redirect_host: "127.0.0.1",
        scopes: ["articles:read", "subscriptions:write"],
      }),
    ]);
    expect((await agents(other.token)).body.agents).toEqual([]);
    expect((await call("/v1/listeners/no-such-token/agents")).status).toBe(404);
  });
});

describe("DELETE /v1/listeners/{token}/agents/{grant_id}", () => {
  it("revokes the grant: its access token is refused at once (401)", async () => {
    const { listener, tokens } = await tokensFor("one@example.test");
    expect(await accessOf(tokens.access_token)).toMatchObject({ clientId: expect.any(String) });
    const [grant] = (await agents(listener.token)).body.agents;
    const res = await call(`/v1/listeners/${listener.token}/agents/${grant.grant_id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await accessOf(tokens.access_token)).toBe(401);
    expect((await agents(listener.token)).body.agents).toEqual([]);
    expect((await call(`/v1/listeners/${listener.token}/agents/${grant.grant_id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("does not let one listener revoke another's grant (404)", async () => {
    const { listener, tokens } = await tokensFor("victim@example.test");
    const other = await subscribeVia("intruder@example.test");
    const [grant] = (await agents(listener.token)).body.agents;
    expect((await call(`/v1/listeners/${other.token}/agents/${grant.grant_id}`, { method: "DELETE" })).status).toBe(404);
    expect(await accessOf(tokens.access_token)).toMatchObject({ scopes: ["articles:read", "subscriptions:write"] });
  });
});

describe("every grant ends with the listener's credentials", () => {
  it("DELETE /v1/listeners/{token}/agents revokes them all", async () => {
    const { listener, tokens } = await tokensFor("all@example.test");
    const res = await call(`/v1/listeners/${listener.token}/agents`, { method: "DELETE" });
    expect(await res.json()).toEqual({ revoked: 1 });
    expect(await accessOf(tokens.access_token)).toBe(401);
  });

  it("rotating the listener's token revokes every grant and signs every browser out", async () => {
    const { listener, tokens } = await tokensFor("rot@example.test");
    const sessions = () => env.DB.prepare("select count(*) as n from web_sessions").first<number>("n");
    expect(await sessions()).toBe(1);
    const rotated = await call(`/v1/listeners/${listener.token}/rotate`, { method: "POST" });
    expect(rotated.status).toBe(200);
    expect(await accessOf(tokens.access_token)).toBe(401);
    expect(await sessions()).toBe(0);
  });

  it("deleting the listener revokes every grant", async () => {
    const { listener, tokens } = await tokensFor("gone@example.test");
    expect((await call(`/v1/listeners/${listener.token}`, { method: "DELETE" })).status).toBe(200);
    expect(await accessOf(tokens.access_token)).toBe(401);
    expect(await env.DB.prepare("select count(*) as n from web_sessions").first<number>("n")).toBe(0);
  });
});
