import { DurableObject } from "cloudflare:workers";
import { database, ledgerEntries } from "../workers/db";

/** A partner-paywall click-through to record once per window. */
export interface PaywallClick {
  listenerId: number;
  publisher: string;
}

/** The ledger entry that stands for a click, and whether an earlier click already wrote it. */
export interface DedupeResult {
  entryId: number;
  duplicate: boolean;
}

interface LastEntry {
  entryId: number;
  at: number;
}

export const PAYWALL_SOURCE = "partner_paywall_click_through";

/**
 * The click-through duplicate window of one (listener, publisher) pair (docs/rules.md "Rules" 3): a repeat
 * within the window returns the last entry instead of writing a row. The window runs from the last
 * entry written, so repeated clicks do not stretch it. An alarm forgets the entry once it expires.
 */
export class DedupeWindow extends DurableObject<Env> {
  /** The D1 insert in progress. D1 calls open the input gate, so without this a second click
   * arriving during the insert would see no entry yet and write a second row. */
  private writing: Promise<number> | null = null;

  /** Records `click` unless an entry younger than `windowMs` exists; concurrent calls write one row. */
  async clickThrough(click: PaywallClick, windowMs: number): Promise<DedupeResult> {
    for (;;) {
      const last = this.ctx.storage.kv.get<LastEntry>("last");
      if (last && Date.now() - last.at < windowMs) return { entryId: last.entryId, duplicate: true };
      if (!this.writing) break;
      await this.writing.catch(() => undefined);
    }
    const at = Date.now();
    this.writing = this.insert(click);
    try {
      const entryId = await this.writing;
      this.ctx.storage.kv.put<LastEntry>("last", { entryId, at });
      await this.ctx.storage.setAlarm(at + windowMs);
      return { entryId, duplicate: false };
    } finally {
      this.writing = null;
    }
  }

  override async alarm(): Promise<void> {
    this.ctx.storage.kv.delete("last");
  }

  private async insert(click: PaywallClick): Promise<number> {
    const [row] = await database(this.env)
      .insert(ledgerEntries)
      .values({ listenerId: click.listenerId, publisher: click.publisher, source: PAYWALL_SOURCE, amountMicros: 0 })
      .returning({ id: ledgerEntries.id });
    return row.id;
  }
}
