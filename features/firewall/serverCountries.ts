/**
 * Country blocking: the admin loads ranges from a CSV (`countries.ts`), a server's owner picks
 * the countries to deny. A country without loaded ranges is refused with that reason, so the
 * page never claims to block what it cannot.
 */
import { fieldError } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import type { HandlerContext } from '../../server/http/handlers';
import type { Db } from '../../server/db/database';
import { parseRangesCsv } from './countries';
import { countryRanges } from './resource';
import { applyState, nowIso, serially, settingsOf } from './serverState';
import { MAX_CC_RANGES } from './state';

type Ctx = HandlerContext<unknown, unknown>;

async function loaded(db: Db) {
  return db
    .selectFrom('firewall_country_loads')
    .select(['country', 'ranges', 'loaded_at'])
    .orderBy('country')
    .execute();
}

export async function ccOf(db: Db, serverId: number) {
  const s = await settingsOf(db, serverId);
  return { countries: s.cc_deny ? s.cc_deny.split(',') : [], loaded: await loaded(db) };
}

export async function setCc(ctx: Ctx, countries: string[]) {
  const { db } = ctx.app;
  const wanted = [...new Set(countries)].sort();
  const have = await loaded(db);
  if (wanted.length && have.length === 0)
    throw fieldError(
      'countries',
      'No country IP ranges are loaded: an admin loads them first (Admin, country ranges CSV)',
    );
  const missing = wanted.filter((c) => !have.some((h) => h.country === c));
  if (missing.length)
    throw fieldError('countries', `No ranges are loaded for ${missing.join(', ')}`);
  const total = have.filter((h) => wanted.includes(h.country)).reduce((n, h) => n + h.ranges, 0);
  if (total > MAX_CC_RANGES)
    throw fieldError(
      'countries',
      `These countries hold ${total} ranges; one server takes at most ${MAX_CC_RANGES}`,
    );
  return serially(ctx.app, ctx.server.id, async () => {
    const before = await settingsOf(db, ctx.server.id);
    const set = (cc: string) =>
      db
        .updateTable('firewall_settings')
        .set({ cc_deny: cc, updated_at: nowIso() })
        .where('server_id', '=', ctx.server.id)
        .execute();
    await set(wanted.join(','));
    if (before.enabled)
      try {
        await applyState(ctx, `Firewall: deny countries ${wanted.join(', ') || '(none)'}`);
      } catch (error) {
        await set(before.cc_deny);
        throw error;
      }
    return ccOf(db, ctx.server.id);
  });
}

export const countryHandlers = defineHandlers(countryRanges, {
  actions: {
    async loaded(ctx) {
      const data = await loaded(ctx.app.db);
      return { data, total: data.length };
    },
    async load(ctx) {
      const { csv } = ctx.body;
      const { ranges, skipped } = parseRangesCsv(csv);
      if (ranges.length === 0)
        throw fieldError('csv', 'No start_ip,end_ip,country_code line was found');
      const byCountry = new Map<string, string[]>();
      for (const r of ranges) {
        const list = byCountry.get(r.country);
        if (list) list.push(r.range);
        else byCountry.set(r.country, [r.range]);
      }
      const at = nowIso();
      await ctx.app.db.transaction().execute(async (trx) => {
        for (const [country, list] of byCountry) {
          await trx.deleteFrom('firewall_country_ranges').where('country', '=', country).execute();
          for (let i = 0; i < list.length; i += 500)
            await trx
              .insertInto('firewall_country_ranges')
              .values(list.slice(i, i + 500).map((range) => ({ country, range })))
              .execute();
          const values = { ranges: list.length, loaded_at: at };
          await trx
            .insertInto('firewall_country_loads')
            .values({ country, ...values })
            .onConflict((oc) => oc.column('country').doUpdateSet(values))
            .execute();
        }
      });
      return { countries: byCountry.size, ranges: ranges.length, skipped };
    },
  },
});
