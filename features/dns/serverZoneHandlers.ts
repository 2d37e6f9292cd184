/** The handlers of DNS zones and records: the provider's, through the user's account `?label=`. */
import { dnsRecords, dnsZones } from './resource';
import { dnsRecordInput } from './schemas';
import type { ListQuery } from '../../resources/define';
import type { DnsProviderId } from '../thirdpartykeys/api';
import { type HandlerContext, defineHandlers, loadedChild } from '../../server/http/handlers';
import { recordActivity } from '../../server/handlers/activity';

export const dnsZoneHandlers = defineHandlers(dnsZones, {
  list: (ctx) => ctx.app.services.dns.listZones(ctx.uid, ctx.query.label, ctx.query),
  async create(ctx) {
    const zone = await ctx.app.services.dns.createZone(ctx.uid, ctx.query.label, {
      name: ctx.body.name,
      nameservers: ctx.body.nameservers,
    });
    await recordActivity(ctx, `Created DNS zone ${zone.name} at "${zone.label}"`);
    return zone;
  },
  async delete(ctx) {
    const zone = await ctx.app.services.dns.deleteZone(ctx.uid, ctx.child, ctx.query.label);
    await recordActivity(ctx, `Deleted DNS zone ${zone.name} at "${zone.label}"`);
    return zone;
  },
  actions: {},
});

/** `GET {dnsprovider}/listdns_records/...`: one route a provider, one handler for all. */
const listAt =
  (provider: DnsProviderId) =>
  (ctx: HandlerContext<ListQuery & { label: string; domain: string }>) =>
    ctx.app.services.dns.listRecords(
      ctx.uid,
      provider,
      ctx.query.label,
      ctx.query.domain,
      ctx.query,
    );

// The record routes get the zone the request hook loaded through `{uid}` as `ctx.within`, and
// the record it loaded within that zone as `ctx.child` (another user's answers 404 first).
export const dnsRecordHandlers = defineHandlers(dnsRecords, {
  actions: {
    listPowerdns: listAt('powerdns'),
    listCloudflare: listAt('cloudflare'),
    async create(ctx) {
      const record = await ctx.app.services.dns.createRecord(
        ctx.uid,
        loadedChild(ctx.within),
        ctx.query.label,
        dnsRecordInput.parse(ctx.body),
      );
      await recordActivity(ctx, `Added DNS record ${record.type} ${record.fqdn}`);
      return record;
    },
    async update(ctx) {
      const record = await ctx.app.services.dns.updateRecord(
        ctx.uid,
        loadedChild(ctx.within),
        loadedChild(ctx.child),
        ctx.query.label,
        dnsRecordInput.parse(ctx.body),
      );
      await recordActivity(ctx, `Changed DNS record ${record.type} ${record.fqdn}`);
      return record;
    },
    async delete(ctx) {
      const done = await ctx.app.services.dns.deleteRecord(
        ctx.uid,
        loadedChild(ctx.within),
        loadedChild(ctx.child),
        ctx.query.label,
      );
      await recordActivity(ctx, `Deleted a DNS record of zone ${ctx.params.zoneId}`);
      return done;
    },
  },
});
