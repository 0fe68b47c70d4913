import { DEVELOPMENT, sitePage } from "../../test/support/links-site";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import worker from "../api";
import { articles, database } from "../db";
import { receiveEmail, type InboundEmail } from "./email-intake";
import attachmentForward from "./fixtures/forwarded-attachment.eml?raw";
import inlineForward from "./fixtures/forwarded-inline.eml?raw";
import { addListener } from "../../test/support/articles";

function inbound(raw: string, from: string, to: string): InboundEmail & { setReject: ReturnType<typeof vi.fn> } {
  const bytes = new TextEncoder().encode(raw);
  return { from, to, raw: new Response(bytes).body!, rawSize: bytes.length, headers: new Headers(), setReject: vi.fn() } as never;
}

describe("e-mail intake", () => {
  it("stores an inline (Gmail-style) forward for the listener whose intake address received it", async () => {
    const { listener } = await addListener({ intakeListenerEmail: "intake-ana@narration.example" });
    const message = inbound(inlineForward, "ana@example.org", "Intake-Ana@narration.example");
    // Through the Worker's own email handler, as Email Routing calls it.
    await worker.email(message as never, env as never);
    expect(message.setReject).not.toHaveBeenCalled();
    const [row] = await database(env).select().from(articles).where(eq(articles.ownerListenerId, listener.id));
    expect(row).toMatchObject({
      title: "Rates hold steady as inflation cools",
      visibility: "listener_private",
      url: "https://www.ledger.example/2026/11/rates-hold-steady",
      publisher: "ledger.example",
    });
    expect(row.bodyText).toMatch(/^Central banks held interest rates steady on Thursday — the third pause in a row/);
    expect(row.bodyText).not.toContain("Worth a listen");
    expect(row.bodyText).not.toContain("From:");
  });

  it("stores a forward-as-attachment (message/rfc822) matched by the sender's address", async () => {
    const { listener } = await addListener({ intakeListenerEmail: "ana@example.org", intakeEmailConfirmedAt: new Date() });
    const outcome = await receiveEmail(inbound(attachmentForward, "ana@example.org", "intake@narration.example"), env);
    expect(outcome.status).toBe("added");
    const row = await database(env).query.articles.findFirst({ where: eq(articles.ownerListenerId, listener.id) });
    expect(row).toMatchObject({ title: "Tide gauges and the new coastline", url: "https://coastal.example/tide-gauges", publisher: "coastal.example" });
    expect(row?.bodyText).toContain("Tide gauges along the estuary now record sea levels");
    expect(row?.bodyText).not.toContain("commute");
    const again = await receiveEmail(inbound(attachmentForward, "ana@example.org", "intake@narration.example"), env);
    expect(again).toEqual({ status: "duplicate", slug: row?.slug });
  });

  it("rejects mail from and to addresses no listener uses, storing nothing", async () => {
    await addListener({ intakeListenerEmail: "someone@example.org" });
    const message = inbound(inlineForward, "stranger@example.net", "intake@narration.example");
    expect(await receiveEmail(message, env)).toMatchObject({ status: "rejected" });
    expect(message.setReject).toHaveBeenCalledOnce();
    expect(await database(env).$count(articles)).toBe(0);
  });

  it("stores forwarded text without the control characters a mail can carry", async () => {
    const { listener } = await addListener({ intakeListenerEmail: "intake-ana@narration.example" });
    // Quoted-printable decodes =00 and =07 to NUL and BEL: no request validation stands between them and the archive.
    const raw = inlineForward
      .replace("Subject: Rates hold steady", "Subject: Rates=00 hold=07 steady")
      .replace("Central banks held", "Central=00 banks=1B held");
    await worker.email(inbound(raw, "ana@example.org", "intake-ana@narration.example") as never, env as never);
    const [row] = await database(env).select().from(articles).where(eq(articles.ownerListenerId, listener.id));
    expect(row.bodyText).toMatch(/^Central banks held interest rates/);
    expect(`${row.title}${row.summary}${row.bodyText}`).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it("reads a forward whose text is built to make the banner pattern backtrack, and stores the right article", async () => {
    const { listener } = await addListener({ intakeListenerEmail: "intake-ana@narration.example" });
    // A near-banner with 200 KB of blanks before a character that spoils it: a pattern whose quantifiers
    // can share the blanks tries every way to split them (quadratic; 80 KB took 13 s of CPU).
    const trap = `-- forwarded message${" \t".repeat(100_000)}!`;
    const raw = inlineForward.replace("Worth a listen on the way in.", `Worth a listen on the way in.\n${trap}\n${"-".repeat(50_000)} x`);
    const outcome = await receiveEmail(inbound(raw, "ana@example.org", "intake-ana@narration.example"), env);
    expect(outcome.status).toBe("added");
    const [row] = await database(env).select().from(articles).where(eq(articles.ownerListenerId, listener.id));
    expect(row.title).toBe("Rates hold steady as inflation cools");
    expect(row.bodyText).toMatch(/^Central banks held interest rates steady on Thursday/);
    expect(row.bodyText).not.toContain("forwarded message");
  });
});

describe("e-mail intake of a link", () => {
  const justALink = (url: string) =>
    `From: Ana <ana@example.org>\r\nTo: intake-ana@narration.example\r\nSubject: read this\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${url}\r\n\r\nSent from my phone\r\n`;

  it("fetches the page of a message that is just a link and narrates its article", async () => {
    const { listener } = await addListener({ intakeListenerEmail: "intake-ana@narration.example" });
    const message = inbound(justALink(sitePage("/news/harbour-ferries-wind")), "ana@example.org", "intake-ana@narration.example");
    const outcome = await receiveEmail(message, { ...env, ...DEVELOPMENT });
    expect(outcome.status).toBe("added");
    const [row] = await database(env).select().from(articles).where(eq(articles.ownerListenerId, listener.id));
    expect(row).toMatchObject({ title: "Harbour ferries return to wind power", url: sitePage("/news/harbour-ferries-wind"), visibility: "listener_private" });
    expect(row.bodyText).toContain("For the first time in ninety years");
    const job = await env.DB.prepare("SELECT priority FROM render_jobs WHERE article_id = ?").bind(row.id).first<{ priority: string }>();
    expect(job?.priority).toBe("high");
  });

  it("bounces a link whose page cannot be added, with the reason, and stores nothing", async () => {
    const { listener } = await addListener({ intakeListenerEmail: "intake-ana@narration.example" });
    const message = inbound(justALink(sitePage("/")), "ana@example.org", "intake-ana@narration.example");
    const outcome = await receiveEmail(message, { ...env, ...DEVELOPMENT });
    expect(outcome).toMatchObject({ status: "rejected" });
    expect(message.setReject).toHaveBeenCalledWith(expect.stringMatching(/does not look like an article/));
    expect(await database(env).select().from(articles).where(eq(articles.ownerListenerId, listener.id))).toEqual([]);
  });
});
