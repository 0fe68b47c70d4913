import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call } from "../../test/support/client";
import { mailer } from "./mailer";
import { RESEND_ENDPOINT, resendMailer } from "./resend";
import { listOutbox } from "./routes/get.dev.outbox";
import { ApiError } from "../core/errors";

const message = { to: "ann@example.test", subject: "Hello", text: "plain part", html: "<p>html part</p>" };

afterEach(() => vi.restoreAllMocks());

describe("Resend adapter", () => {
  it("posts the message with both parts and the bearer key", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ id: "re_123" }));
    const result = await resendMailer("re_key", "Narration <no-reply@example.test>").send(message);
    expect(result).toEqual({ ok: true, id: "re_123" });
    expect(spy).toHaveBeenCalledTimes(1);
    const [url, init] = spy.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(RESEND_ENDPOINT);
    expect(init.method).toBe("POST");
    expect(new Headers(init.headers).get("authorization")).toBe("Bearer re_key");
    expect(JSON.parse(init.body as string)).toEqual({
      from: "Narration <no-reply@example.test>",
      to: ["ann@example.test"],
      subject: "Hello",
      text: "plain part",
      html: "<p>html part</p>",
    });
  });

  it("passes extra header fields (List-Unsubscribe) as Resend's headers object", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ id: "re_1" }));
    const headers = { "List-Unsubscribe": "<https://api.example.test/v1/unsubscribe/1.x>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    await resendMailer("k", "f").send({ ...message, headers });
    expect(JSON.parse((spy.mock.calls[0][1] as RequestInit).body as string).headers).toEqual(headers);
  });

  it.each([
    [422, "rejected"],
    [503, "upstream_error"],
  ])("turns HTTP %i into %s", async (status, reason) => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("{}", { status }));
    expect(await resendMailer("k", "f").send(message)).toEqual({ ok: false, reason });
  });

  it("turns a network failure into network_error", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed"));
    expect(await resendMailer("k", "f").send(message)).toEqual({ ok: false, reason: "network_error" });
  });
});

const configured = (over: Record<string, string>): Env => ({ ...env, ...over });

describe("mailer selection", () => {
  it("prefers the outbox, then Resend, else nothing", () => {
    expect(mailer(configured({ MAIL_OUTBOX: "true", RESEND_API_KEY: "k" }))?.kind).toBe("outbox");
    expect(mailer(configured({ MAIL_OUTBOX: "false", RESEND_API_KEY: "k" }))?.kind).toBe("resend");
    expect(mailer(configured({ MAIL_OUTBOX: "false", RESEND_API_KEY: "" }))).toBeNull();
  });
});

describe("GET /v1/dev/outbox", () => {
  it("lists stored messages newest first with both parts", async () => {
    await mailer(env)!.send(message);
    await mailer(env)!.send({ ...message, subject: "Second" });
    const res = await call("/v1/dev/outbox");
    expect(res.status).toBe(200);
    const { messages } = (await res.json()) as { messages: (typeof message)[] };
    expect(messages.map((m) => m.subject)).toEqual(["Second", "Hello"]);
    expect(messages[1]).toMatchObject(message);
  });

  it("is off, and stores no mail, on a deployment whose BASE_URL is not this machine's, even with MAIL_OUTBOX=true (issue 40 item 13)", async () => {
    // A MAIL_OUTBOX=true left on a public deployment would let anyone read every sign-in link.
    const deployed = configured({ MAIL_OUTBOX: "true", BASE_URL: "https://api.narration.example", RESEND_API_KEY: "k" });
    expect(mailer(deployed)?.kind).toBe("resend");
    expect(mailer(configured({ MAIL_OUTBOX: "true", BASE_URL: "https://api.narration.example", RESEND_API_KEY: "" }))).toBeNull();
    const outcome = await Promise.resolve()
      .then(() => listOutbox.handle({ env: deployed, query: { limit: 20 } } as unknown as Parameters<typeof listOutbox.handle>[0]))
      .catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(ApiError);
    expect((outcome as ApiError).status).toBe(404);
    expect(mailer(configured({ MAIL_OUTBOX: "true", BASE_URL: "http://127.0.0.1:8787" }))?.kind).toBe("outbox");
  });

  it("does not exist unless MAIL_OUTBOX=true", async () => {
    const input = { env: { ...env, MAIL_OUTBOX: "" }, query: { limit: 20 } };
    const outcome = await Promise.resolve()
      .then(() => listOutbox.handle(input as unknown as Parameters<typeof listOutbox.handle>[0]))
      .catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(ApiError);
    expect((outcome as ApiError).status).toBe(404);
  });
});
