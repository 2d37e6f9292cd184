import type { Kysely } from 'kysely';

/** What the outbox shows in place of a secret (server/mail/mailer.ts MASK; migrations stand alone). */
const MASK = '••••••';
/** Six-digit codes, and links that carry a code, a reset request, an invitation or an offer. */
const SECRETS = [
  /\b\d{6}\b/g,
  /https?:\/\/\S*(?:[?&](?:uuid|id|invite|code)=|\/dashboard\/[0-9a-f-]{36})\S*/gi,
];

/** The text with every secret masked; unchanged when there is none. */
export function scrub(text: string): string {
  return SECRETS.reduce((out, pattern) => out.replace(pattern, MASK), text);
}

/**
 * Mail written before 0007's outbox masking (issue 8) holds codes and links in clear: masks them
 * in the rows already there, so no admin view shows one after an upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work below the typed schema
  const any = db as Kysely<any>;
  const rows = (await any
    .selectFrom('outbox')
    .select(['id', 'subject', 'text_body'])
    .execute()) as {
    id: number;
    subject: string;
    text_body: string;
  }[];
  for (const row of rows) {
    const subject = scrub(row.subject);
    const text_body = scrub(row.text_body);
    if (subject === row.subject && text_body === row.text_body) continue;
    await any.updateTable('outbox').set({ subject, text_body }).where('id', '=', row.id).execute();
  }
}

/** Masked text cannot be unmasked. */
export async function down(): Promise<void> {}
