/**
 * How a mailbox is put on its server and taken off again (the managed kind): its domain first
 * (made once, its DKIM key kept on `mail_domains`), then its passwd-file line, then the domain's
 * forwards as a whole set (with its forwarders and catch-all: serverForwardSet.ts), both in one
 * call shared with the other requests of that moment (serverMailboxRounds.ts).
 */
import type { Db } from '../../server/db/database';
import { type Drift, type OpCall, defineManagedKind } from '../../server/managed/kind';
import { setForwards } from './serverForwardSet';
import { putMailbox } from './serverMailboxRounds';
import type { MailboxRow } from './serverTables';

export const addressOf = (row: Pick<MailboxRow, 'local' | 'domain'>) =>
  `${row.local}@${row.domain}`;
export const targetsOf = (row: Pick<MailboxRow, 'forward_to'>) =>
  JSON.parse(row.forward_to) as string[];

/** The domain on the server, made by its first mailbox or forwarder; its DKIM key kept. */
export async function ensureDomain(
  op: OpCall,
  db: Db,
  row: Pick<MailboxRow, 'server_id' | 'webapp_id' | 'domain'>,
): Promise<void> {
  const known = await db
    .selectFrom('mail_domains')
    .select('id')
    .where('webapp_id', '=', row.webapp_id)
    .where('domain', '=', row.domain)
    .executeTakeFirst();
  if (known) return;
  const made = await op('mail.domain.set', { domain: row.domain });
  // Another request may have made it meanwhile: the key is the server's either way (kept once).
  await db
    .insertInto('mail_domains')
    .values({
      server_id: row.server_id,
      webapp_id: row.webapp_id,
      domain: row.domain,
      dkim_public_key: made.dkim_public_key,
      selector: made.selector,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['webapp_id', 'domain']).doNothing())
    .execute();
}

export const mailboxKind = defineManagedKind<MailboxRow>({
  resource: 'mail-user',
  table: 'mail_users',
  transient: ['password_hash'],
  toColumns: (input) => ({
    local: input.local,
    domain: input.domain,
    quota_mb: input.quota_mb ?? 1024,
    password_hash: null,
    forward_to: '[]',
    keep_copy: 1,
    delete_mail: 0,
  }),
  noun: (row) => `mailbox ${addressOf(row)}`,
  says(action, row) {
    if (action === 'update') return `Change mailbox ${addressOf(row)}`;
    if (action === 'delete' && row.delete_mail)
      return `Delete mailbox ${addressOf(row)} and its mail`;
    return undefined;
  },
  async apply(op, row, env) {
    await ensureDomain(op, env.db, row);
    await putMailbox(
      { op, db: env.db, serverId: row.server_id, domain: row.domain },
      { id: row.id, local: row.local, password_hash: row.password_hash, quota_mb: row.quota_mb },
    );
  },
  async remove(op, row, env) {
    await setForwards(op, env.db, row.server_id, row.domain, { table: 'mail_users', id: row.id });
    await op('mail.mailbox.remove', {
      domain: row.domain,
      local: row.local,
      delete_mail: Boolean(row.delete_mail),
    });
  },
  async readBack(op, rows) {
    const drift = new Map<number, Drift>();
    const active = rows.filter((r) => r.status === 'active');
    for (const domain of new Set(active.map((r) => r.domain))) {
      const held = new Map(
        (await op('mail.mailbox.list', { domain })).map((m) => [m.local, m.quota_mb]),
      );
      for (const row of active.filter((r) => r.domain === domain)) {
        const quota = held.get(row.local);
        if (quota === undefined) drift.set(row.id, 'missing');
        else if (quota !== row.quota_mb) drift.set(row.id, 'changed');
      }
    }
    return drift;
  },
});
