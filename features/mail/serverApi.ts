/** What mail offers other features' panel code: import it from here. */
import type { Db } from '../../server/db/database';
import type { AppMailDomain } from './api';

export type { AppMailDomain } from './api';
export { mailEnabled } from './serverEnable';
export { addressOf } from './serverKind';

/** The mail domains of an app on its server, with their DKIM public key, by domain name. */
export async function appMailDomains(
  db: Db,
  serverId: number,
  webappId: number,
): Promise<AppMailDomain[]> {
  return db
    .selectFrom('mail_domains')
    .select(['domain', 'selector', 'dkim_public_key', 'created_at'])
    .where('server_id', '=', serverId)
    .where('webapp_id', '=', webappId)
    .orderBy('domain')
    .execute();
}

/** The server's mailboxes (every app's, but those on their way out), by address. */
export async function serverMailboxes(
  db: Db,
  serverId: number,
): Promise<{ id: number; address: string; status: string }[]> {
  const rows = await db
    .selectFrom('mail_users')
    .select(['id', 'local', 'domain', 'status'])
    .where('server_id', '=', serverId)
    .where('status', '!=', 'deleting')
    .orderBy('domain')
    .orderBy('local')
    .execute();
  return rows.map((r) => ({ id: r.id, address: `${r.local}@${r.domain}`, status: r.status }));
}
