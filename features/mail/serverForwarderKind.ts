/**
 * How a forwarder or catch-all is put on its server and taken off again (the managed kind): its
 * domain first (made once, as by a first mailbox), then the domain's whole forward set with it,
 * or without it.
 */
import type { Db } from '../../server/db/database';
import { defineManagedKind } from '../../server/managed/kind';
import { setForwards } from './serverForwardSet';
import { CATCH_ALL, type ForwarderRow } from './serverForwardersTable';
import { ensureDomain } from './serverKind';

/** `local@domain`, or `@domain` for the catch-all (as Postfix's virtual aliases key it). */
export const forwarderAddress = (row: Pick<ForwarderRow, 'local' | 'domain'>) =>
  row.local === CATCH_ALL ? `@${row.domain}` : `${row.local}@${row.domain}`;

export const forwarderTargets = (row: Pick<ForwarderRow, 'targets'>) =>
  JSON.parse(row.targets) as string[];

const nounOf = (row: ForwarderRow) =>
  row.local === CATCH_ALL ? `the catch-all of ${row.domain}` : `forwarder ${forwarderAddress(row)}`;

/** Whether the server was ever given the domain (a forwarder that never got there has no set). */
async function domainMade(db: Db, row: ForwarderRow): Promise<boolean> {
  const known = await db
    .selectFrom('mail_domains')
    .select('id')
    .where('webapp_id', '=', row.webapp_id)
    .where('domain', '=', row.domain)
    .executeTakeFirst();
  return known !== undefined;
}

export const forwarderKind = defineManagedKind<ForwarderRow>({
  resource: 'mail-forwarder',
  table: 'mail_forwarders',
  toColumns: (input) => ({
    local: input.local,
    domain: input.domain,
    targets: JSON.stringify(input.targets ?? []),
  }),
  noun: nounOf,
  says(action, row) {
    if (action === 'delete') return undefined;
    const to = forwarderTargets(row).join(', ');
    return row.local === CATCH_ALL
      ? `Catch all mail of ${row.domain} for ${to}`
      : `Forward ${forwarderAddress(row)} to ${to}`;
  },
  async apply(op, row, env) {
    await ensureDomain(op, env.db, row);
    await setForwards(op, env.db, row.server_id, row.domain);
  },
  async remove(op, row, env) {
    if (!(await domainMade(env.db, row))) return;
    await setForwards(op, env.db, row.server_id, row.domain, {
      table: 'mail_forwarders',
      id: row.id,
    });
  },
});
