/**
 * The allow, deny and ignore lists (`csf/{list}/...`) and the temporary rules (`trules/...`):
 * rows first, then the one element at runtime on a running firewall (the ignore list: fail2ban's
 * jails written again with it); a row the server refused (or could not get: offline) is taken
 * back out, so the list shows what the server enforces. The ignore list is enforced by
 * subscribers of `firewall.ignore-changed` (features/fail2ban).
 */
import type { Selectable } from 'kysely';
import { emit } from '../../server/events/emit';
import { fieldError, notFound } from '../../server/http/errors';
import {
  type ActionContext,
  type ActionName,
  type HandlerContext,
  defineHandlers,
  loadedChild,
} from '../../server/http/handlers';
import { SELF_ADDRESSES, contains, parseCidr } from './addresses';
import { type FirewallEntry, type TempRule, firewallLists, tempRules } from './resource';
import { type ListName, REMOVED_MESSAGE } from './routesDecl';
import type { FirewallEntriesTable, FirewallTempTable } from './serverTables';
import { applyState, dropExpired, nowIso, serially, settingsOf } from './serverState';

type Ctx = HandlerContext<unknown, unknown>;
/** The three lists (and both kinds of rule) declare the same query and body: one type serves. */
type ListCall<K extends ActionName<typeof firewallLists>> = ActionContext<typeof firewallLists, K>;
type TempCall<K extends ActionName<typeof tempRules>> = ActionContext<typeof tempRules, K>;
type EntryRow = Selectable<FirewallEntriesTable>;
type TempRow = Selectable<FirewallTempTable>;
const WORDS: Record<ListName, string> = {
  csf_allow: 'allow',
  csf_deny: 'deny',
  csf_ignore: 'ignore',
};
const SET: Record<ListName, 'allow' | 'deny' | null> = {
  csf_allow: 'allow',
  csf_deny: 'deny',
  csf_ignore: null,
};

const entryRecord = (r: EntryRow): FirewallEntry => ({
  id: r.id,
  ip: r.ip,
  comment: r.comment,
  created_at: r.created_at,
});

/** Denying the server's own loopback addresses would cut it off from itself. */
function refuseSelf(ip: string) {
  const c = parseCidr(ip)!;
  if (SELF_ADDRESSES.some((s) => contains(c, s)))
    throw fieldError(
      'ip',
      `${ip} holds the server's own address (127.0.0.1 or ::1): it cannot be denied`,
    );
}

/** On a running firewall, one element in or out; a stopped one only keeps the row. */
async function pushChange(ctx: Ctx, message: string, change: Parameters<typeof applyState>[2]) {
  const settings = await settingsOf(ctx.app.db, ctx.server.id);
  if (settings.enabled) await applyState(ctx, message, change);
}

function listHandlers(list: ListName) {
  const set = SET[list];
  const add = async (ctx: ListCall<'allowAdd'>) => {
    const { ip, comment } = ctx.body;
    if (list === 'csf_deny') refuseSelf(ip);
    const { db } = ctx.app;
    return serially(ctx.app, ctx.server.id, async () => {
      const taken = await db
        .selectFrom('firewall_entries')
        .select('id')
        .where('server_id', '=', ctx.server.id)
        .where('list', '=', list)
        .where('ip', '=', ip)
        .executeTakeFirst();
      if (taken) throw fieldError('ip', `${ip} is already on the ${WORDS[list]} list`);
      const row = await db
        .insertInto('firewall_entries')
        .values({ server_id: ctx.server.id, list, ip, comment, created_at: nowIso() })
        .returningAll()
        .executeTakeFirstOrThrow();
      try {
        if (set)
          await pushChange(ctx, `Firewall: ${WORDS[list]} ${ip}`, {
            action: 'add',
            list: set,
            ip,
            port: null,
            ttl: null,
          });
        else
          await emit(ctx.app, 'firewall.ignore-changed', {
            ctx,
            message: `Fail2ban: never ban ${ip}`,
          });
      } catch (error) {
        await db.deleteFrom('firewall_entries').where('id', '=', row.id).execute();
        throw error;
      }
      return entryRecord(row);
    });
  };
  const remove = async (ctx: Ctx, row: EntryRow | undefined) => {
    if (!row || row.list !== list) throw notFound(`That address is not on the ${WORDS[list]} list`);
    return serially(ctx.app, ctx.server.id, async () => {
      const { db } = ctx.app;
      await db.deleteFrom('firewall_entries').where('id', '=', row.id).execute();
      try {
        if (set)
          await pushChange(ctx, `Firewall: take ${row.ip} off the ${WORDS[list]} list`, {
            action: 'delete',
            list: set,
            ip: row.ip,
            port: null,
            ttl: null,
          });
        else
          await emit(ctx.app, 'firewall.ignore-changed', {
            ctx,
            message: `Fail2ban: ${row.ip} may be banned again`,
          });
      } catch (error) {
        // The row as it was, id included; only the table's columns (a loaded child may carry more).
        const { id, server_id, ip, comment, created_at } = row;
        await db
          .insertInto('firewall_entries')
          .values({ id, server_id, list: row.list, ip, comment, created_at })
          .execute();
        throw error;
      }
      return { message: REMOVED_MESSAGE, ip: row.ip };
    });
  };
  return {
    add,
    async list(ctx: ListCall<'allowList'>) {
      const { ip, page, perPage } = ctx.query;
      const base = ctx.app.db
        .selectFrom('firewall_entries')
        .where('server_id', '=', ctx.server.id)
        .where('list', '=', list)
        .$if(ip !== undefined, (q) => q.where('ip', '=', ip!));
      const { n } = await base
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await base
        .selectAll()
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { data: rows.map(entryRecord), total: Number(n) };
    },
    async removeIp(ctx: ListCall<'allowRemoveIp'>) {
      const { ip } = ctx.query;
      const row = await ctx.app.db
        .selectFrom('firewall_entries')
        .selectAll()
        .where('server_id', '=', ctx.server.id)
        .where('list', '=', list)
        .where('ip', '=', ip)
        .executeTakeFirst();
      return remove(ctx, row);
    },
    removeId: (ctx: ListCall<'allowRemoveId'>) => remove(ctx, loadedChild(ctx.child)),
  };
}

const [allow, deny, ignore] = [
  listHandlers('csf_allow'),
  listHandlers('csf_deny'),
  listHandlers('csf_ignore'),
];

export const listsHandlers = defineHandlers(firewallLists, {
  actions: {
    allowAdd: allow.add,
    allowList: allow.list,
    allowRemoveIp: allow.removeIp,
    allowRemoveId: allow.removeId,
    denyAdd: deny.add,
    denyList: deny.list,
    denyRemoveIp: deny.removeIp,
    denyRemoveId: deny.removeId,
    ignoreAdd: ignore.add,
    ignoreList: ignore.list,
    ignoreRemoveIp: ignore.removeIp,
    ignoreRemoveId: ignore.removeId,
  },
});

const tempRecord = (r: TempRow): TempRule => ({
  id: r.id,
  kind: r.kind,
  ip: r.ip,
  port: r.port,
  comment: r.comment,
  ttl: r.ttl,
  expires_at: r.expires_at,
  time_left: Math.max(0, Math.ceil((Date.parse(r.expires_at) - Date.now()) / 1000)),
});

function tempHandlers(kind: 'allow' | 'deny') {
  const setName = kind === 'allow' ? 'tempallow' : 'tempdeny';
  return {
    async list(ctx: Ctx) {
      await dropExpired(ctx.app.db, ctx.server.id);
      const rows = await ctx.app.db
        .selectFrom('firewall_temp')
        .selectAll()
        .where('server_id', '=', ctx.server.id)
        .where('kind', '=', kind)
        .orderBy('expires_at')
        .execute();
      return { data: rows.map(tempRecord), total: rows.length };
    },
    async add(ctx: TempCall<'allowAdd'>) {
      const { ip, ttl, port, comment } = ctx.body;
      if (kind === 'deny') refuseSelf(ip);
      const { db } = ctx.app;
      return serially(ctx.app, ctx.server.id, async () => {
        const at = Date.now();
        const row = await db
          .insertInto('firewall_temp')
          .values({
            server_id: ctx.server.id,
            kind,
            ip,
            port: port ?? null,
            comment,
            ttl,
            expires_at: new Date(at + ttl * 1000).toISOString(),
            created_at: new Date(at).toISOString(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        try {
          await pushChange(
            ctx,
            `Firewall: temporary ${kind} ${ip}${port ? ` port ${port}` : ''} for ${ttl} s`,
            {
              action: 'add',
              list: setName,
              ip,
              port: port ?? null,
              ttl,
            },
          );
        } catch (error) {
          await db.deleteFrom('firewall_temp').where('id', '=', row.id).execute();
          throw error;
        }
        return tempRecord(row);
      });
    },
    async remove(ctx: TempCall<'allowRemove'>) {
      const row = loadedChild(ctx.child);
      if (row.kind !== kind) throw notFound(`No such temporary ${kind} rule`);
      return serially(ctx.app, ctx.server.id, async () => {
        await ctx.app.db.deleteFrom('firewall_temp').where('id', '=', row.id).execute();
        try {
          await pushChange(ctx, `Firewall: end the temporary ${kind} of ${row.ip}`, {
            action: 'delete',
            list: setName,
            ip: row.ip,
            port: row.port,
            ttl: null,
          });
        } catch (error) {
          // The row as it was; only the table's columns (a loaded child may carry more).
          const { id, server_id, ip, port, comment, ttl, expires_at, created_at } = row;
          await ctx.app.db
            .insertInto('firewall_temp')
            .values({
              id,
              server_id,
              kind: row.kind,
              ip,
              port,
              comment,
              ttl,
              expires_at,
              created_at,
            })
            .execute();
          throw error;
        }
        return { message: REMOVED_MESSAGE, ip: row.ip };
      });
    },
  };
}

const [tAllow, tDeny] = [tempHandlers('allow'), tempHandlers('deny')];

export const tempHandlersBound = defineHandlers(tempRules, {
  actions: {
    allowList: tAllow.list,
    allowAdd: tAllow.add,
    allowRemove: tAllow.remove,
    denyList: tDeny.list,
    denyAdd: tDeny.add,
    denyRemove: tDeny.remove,
  },
});
