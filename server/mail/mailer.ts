import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { now } from '../db/database';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Every mail lands in the outbox table first (admins read it there; on the embedded default
 * that is the delivery), then goes out over SMTP when SMTP_URL is set. The log names the mail
 * but never its body, which may hold codes.
 */
export class Mailer {
  private readonly transport: Transporter | null;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: { smtpUrl: string | null; from: string },
  ) {
    this.from = options.from;
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  }

  private readonly from: string;

  async send(mail: Mail): Promise<number> {
    const row = await this.db
      .insertInto('outbox')
      .values({
        to_addr: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        created_at: now(),
        sent_at: null,
        error: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.log.info({ outboxId: row.id, to: mail.to, subject: mail.subject }, 'mail queued');
    if (this.transport) {
      const delivery = this.deliver(row.id, mail).finally(() => this.pending.delete(delivery));
      this.pending.add(delivery);
    }
    return row.id;
  }

  private async deliver(id: number, mail: Mail): Promise<void> {
    try {
      await this.transport!.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      await this.db.updateTable('outbox').set({ sent_at: now() }).where('id', '=', id).execute();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ outboxId: id, err: message }, 'mail delivery failed');
      await this.db
        .updateTable('outbox')
        .set({ error: message.slice(0, 1000) })
        .where('id', '=', id)
        .execute();
    }
  }

  /** Waits for deliveries in flight (graceful shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  close(): void {
    this.transport?.close();
  }
}
