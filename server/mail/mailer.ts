import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { now } from '../db/database';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /**
   * The parts of `text` only the recipient may read: codes and the links that carry a code or
   * an invitation. The outbox stores the text with them masked, so no admin view (nor the
   * database) ever holds them; only the SMTP delivery, made from memory, carries them.
   */
  secrets?: string[];
}

/** What an admin sees in place of a secret. */
export const MASK = '••••••';

/** The mail's text with every secret replaced by the mask (longest first: a link may hold a code). */
export function maskSecrets(mail: Pick<Mail, 'text' | 'secrets'>): string {
  const secrets = [...new Set(mail.secrets ?? [])]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((text, secret) => text.split(secret).join(MASK), mail.text);
}

/**
 * Every mail lands in the outbox table first, its secrets masked (admins see there that a code
 * or link went out, never the code), then goes out over SMTP when SMTP_URL is set, with the real
 * text held in memory only. Without SMTP_URL a coded mail reaches nobody: an admin confirms the
 * account or the CLI resets the password instead. The log names the mail but never its body.
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
        subject: maskSecrets({ text: mail.subject, secrets: mail.secrets }),
        text_body: maskSecrets(mail),
        created_at: now(),
        sent_at: null,
        error: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.log.info(
      {
        outboxId: row.id,
        to: mail.to,
        subject: maskSecrets({ text: mail.subject, secrets: mail.secrets }),
      },
      'mail queued',
    );
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
