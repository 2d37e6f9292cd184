/**
 * The forwarders as the account sees them: records with their server and app named, every
 * forwarder of the account (paged), and the mail domains of its apps with their catch-alls.
 */
import type { Db } from '../../server/db/database';
import { defineHandlers } from '../../server/http/handlers';
import { visibleServerIds } from '../../server/repositories/servers';
import { type Forwarder, type MailDomain, mailForwarderAccount } from './forwardersResource';
import { forwarderAddress, forwarderTargets } from './serverForwarderKind';
import { CATCH_ALL, type ForwarderRow } from './serverForwardersTable';

type Named = Omit<ForwarderRow, 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
  server_name: string;
  webapp_name: string;
};

/** The forwarders with their server's and app's names. */
function named(db: Db) {
  return db
    .selectFrom('mail_forwarders')
    .innerJoin('servers', 'servers.id', 'mail_forwarders.server_id')
    .innerJoin('webapps', 'webapps.id', 'mail_forwarders.webapp_id')
    .selectAll('mail_forwarders')
    .select(['servers.name as server_name', 'webapps.name as webapp_name']);
}

const recordOf = (r: Named): Forwarder => ({
  id: r.id,
  address: forwarderAddress(r),
  local: r.local,
  domain: r.domain,
  catch_all: r.local === CATCH_ALL,
  targets: forwarderTargets(r),
  server_id: r.server_id,
  server_name: r.server_name,
  webapp_id: r.webapp_id,
  webapp_name: r.webapp_name,
  status: r.status,
  error: r.error,
  error_field: r.error_field,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** The records of rows of one server, in their order, with one query for the names. */
export async function forwarderRecords(db: Db, rows: ForwarderRow[]): Promise<Forwarder[]> {
  const ids = rows.map((r) => r.id);
  const found = ids.length ? await named(db).where('mail_forwarders.id', 'in', ids).execute() : [];
  const names = new Map(found.map((r) => [r.id, r]));
  return rows.map((row) => {
    const n = names.get(row.id);
    return recordOf({
      ...row,
      server_name: n?.server_name ?? '',
      webapp_name: n?.webapp_name ?? '',
    });
  });
}

/** The domains of the account's apps on servers with mail enabled, each with its catch-all. */
async function domains(db: Db, uid: number): Promise<MailDomain[]> {
  const visible = visibleServerIds(db, uid);
  const [apps, catchAlls] = await Promise.all([
    db
      .selectFrom('webapps')
      .innerJoin('servers', 'servers.id', 'webapps.server_id')
      .innerJoin('mail_servers', 'mail_servers.server_id', 'webapps.server_id')
      .select([
        'webapps.id',
        'webapps.name',
        'webapps.domains',
        'webapps.server_id',
        'servers.name as server_name',
      ])
      .where('webapps.server_id', 'in', visible)
      .where('mail_servers.enabled', '=', 1)
      .where('webapps.status', '!=', 'deleting')
      .orderBy('webapps.name')
      .orderBy('webapps.id')
      .execute(),
    named(db)
      .where('mail_forwarders.server_id', 'in', visible)
      .where('mail_forwarders.local', '=', CATCH_ALL)
      .execute(),
  ]);
  const held = new Map(catchAlls.map((r) => [`${r.webapp_id} ${r.domain}`, recordOf(r)]));
  return apps.flatMap((app) =>
    (JSON.parse(app.domains) as string[]).map((domain) => ({
      domain,
      server_id: app.server_id,
      server_name: app.server_name,
      webapp_id: app.id,
      webapp_name: app.name,
      catch_all: held.get(`${app.id} ${domain}`) ?? null,
    })),
  );
}

export const forwarderAccountHandlers = defineHandlers(mailForwarderAccount, {
  actions: {
    async list(ctx) {
      const { page, perPage } = ctx.query;
      const mine = () =>
        named(ctx.app.db)
          .where('mail_forwarders.server_id', 'in', visibleServerIds(ctx.app.db, ctx.uid))
          .where('mail_forwarders.local', '!=', CATCH_ALL);
      const [rows, count] = await Promise.all([
        mine()
          .orderBy('mail_forwarders.domain', 'asc')
          .orderBy('mail_forwarders.local', 'asc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        ctx.app.db
          .selectFrom('mail_forwarders')
          .where('server_id', 'in', visibleServerIds(ctx.app.db, ctx.uid))
          .where('local', '!=', CATCH_ALL)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows.map(recordOf), total: Number(count.n) };
    },
    domains: (ctx) => domains(ctx.app.db, ctx.uid),
  },
});
