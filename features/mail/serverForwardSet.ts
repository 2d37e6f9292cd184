/**
 * A server's forwards as the panel holds them: what `mail.forwards.set` sends for a domain (the
 * mailboxes' own forwards, the forwarders, the catch-all: the whole set, as the op replaces it),
 * and the map of every address the loop check follows.
 */
import type { Db } from '../../server/db/database';
import type { OpCall } from '../../server/managed/kind';
import { CATCH_ALL } from './serverForwardersTable';

/** The row left out: the one being removed, or whose new targets are being checked. */
export interface Except {
  table: 'mail_users' | 'mail_forwarders';
  id: number;
}

const parse = (json: string) => JSON.parse(json) as string[];

/** The server's rows that forward (of one domain, when given); rows being removed are left out. */
async function rowsOf(db: Db, serverId: number, domain?: string) {
  let boxes = db
    .selectFrom('mail_users')
    .select(['id', 'local', 'domain', 'forward_to', 'keep_copy'])
    .where('server_id', '=', serverId)
    .where('status', '!=', 'deleting');
  let forwarders = db
    .selectFrom('mail_forwarders')
    .select(['id', 'local', 'domain', 'targets'])
    .where('server_id', '=', serverId)
    .where('status', '!=', 'deleting');
  if (domain !== undefined) {
    boxes = boxes.where('domain', '=', domain);
    forwarders = forwarders.where('domain', '=', domain);
  }
  return Promise.all([boxes.orderBy('id').execute(), forwarders.orderBy('id').execute()]);
}

const kept = (except: Except | undefined, table: Except['table']) => (row: { id: number }) =>
  !(except?.table === table && except.id === row.id);

/** The domain's forwards as the server gets them: its mailboxes' and forwarders', but `except`. */
export async function forwardSet(db: Db, serverId: number, domain: string, except?: Except) {
  const [boxes, forwarders] = await rowsOf(db, serverId, domain);
  const own = boxes
    .filter(kept(except, 'mail_users'))
    .filter((r) => parse(r.forward_to).length > 0)
    .map((r) => ({
      id: r.id,
      source: r.local,
      targets: parse(r.forward_to),
      keep_copy: Boolean(r.keep_copy),
    }));
  const others = forwarders
    .filter(kept(except, 'mail_forwarders'))
    .map((r) => ({ id: r.id, source: r.local, targets: parse(r.targets), keep_copy: false }));
  // Postfix matches exact addresses before `@domain` whatever the order: last only to read well.
  return [
    ...own,
    ...others.filter((f) => f.source !== CATCH_ALL),
    ...others.filter((f) => f.source === CATCH_ALL),
  ];
}

export async function setForwards(
  op: OpCall,
  db: Db,
  serverId: number,
  domain: string,
  except?: Except,
): Promise<void> {
  await op('mail.forwards.set', {
    domain,
    forwards: await forwardSet(db, serverId, domain, except),
  });
}

/**
 * Where mail to each address of the server goes (features/mail/forwards.ts `loopTarget`): every
 * mailbox (none: it keeps its mail), every forwarder, each catch-all as `@domain`; but `except`.
 */
export async function forwardGraph(
  db: Db,
  serverId: number,
  except?: Except,
): Promise<Map<string, string[]>> {
  const [boxes, forwarders] = await rowsOf(db, serverId);
  const graph = new Map<string, string[]>();
  for (const r of boxes.filter(kept(except, 'mail_users')))
    graph.set(`${r.local}@${r.domain}`, parse(r.forward_to));
  for (const r of forwarders.filter(kept(except, 'mail_forwarders')))
    graph.set(r.local === CATCH_ALL ? `@${r.domain}` : `${r.local}@${r.domain}`, parse(r.targets));
  return graph;
}
