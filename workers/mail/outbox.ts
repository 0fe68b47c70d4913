import { desc } from "drizzle-orm";
import { database, mailOutbox } from "../db/index";
import type { MailMessage, Mailer } from "./message";

/** A Mailer that stores each message in the D1 outbox instead of sending it (local development). */
export function outboxMailer(env: Pick<Env, "DB">): Mailer {
  return {
    kind: "outbox",
    async send(message: MailMessage) {
      const [row] = await database(env)
        .insert(mailOutbox)
        .values({ ...message, headers: message.headers ?? {} })
        .returning({ id: mailOutbox.id });
      return { ok: true, id: `outbox-${row.id}` };
    },
  };
}

/** The newest `limit` messages of the outbox. */
export function outboxMessages(env: Pick<Env, "DB">, limit: number) {
  return database(env).select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
}
