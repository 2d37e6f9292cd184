import { dnsRecordInput, dnsRecords, dnsZones } from '../../../resources/dns';
import { defineHandlers } from '../../http/handlers';
import { recordActivity } from '../activity';

export const dnsZoneHandlers = defineHandlers(dnsZones, {
  list: (ctx) => ctx.app.services.dns.listZones(ctx.uid, ctx.query.label, ctx.query),
  async create(ctx) {
    const zone = await ctx.app.services.dns.createZone(ctx.uid, ctx.query.label, {
      name: ctx.body.name as string,
      nameservers: ctx.body.nameservers,
    });
    await recordActivity(ctx, `Created DNS zone ${zone.name} at "${zone.label}"`);
    return zone;
  },
  async delete(ctx) {
    const zone = await ctx.app.services.dns.deleteZone(
      ctx.uid,
      Number(ctx.params.zoneId),
      ctx.query.label,
    );
    await recordActivity(ctx, `Deleted DNS zone ${zone.name} at "${zone.label}"`);
    return zone;
  },
  actions: {},
});

export const dnsRecordHandlers = defineHandlers(dnsRecords, {
  actions: {
    listPowerdns: (ctx) =>
      ctx.app.services.dns.listRecords(
        ctx.uid,
        'powerdns',
        ctx.query.label,
        ctx.query.domain,
        ctx.query,
      ),
    listCloudflare: (ctx) =>
      ctx.app.services.dns.listRecords(
        ctx.uid,
        'cloudflare',
        ctx.query.label,
        ctx.query.domain,
        ctx.query,
      ),
    async create(ctx) {
      const record = await ctx.app.services.dns.createRecord(
        ctx.uid,
        Number(ctx.params.zoneId),
        ctx.query.label,
        dnsRecordInput.parse(ctx.body),
      );
      await recordActivity(ctx, `Added DNS record ${record.type} ${record.fqdn}`);
      return record;
    },
    async update(ctx) {
      const record = await ctx.app.services.dns.updateRecord(
        ctx.uid,
        Number(ctx.params.zoneId),
        Number(ctx.params.recordId),
        ctx.query.label,
        dnsRecordInput.parse(ctx.body),
      );
      await recordActivity(ctx, `Changed DNS record ${record.type} ${record.fqdn}`);
      return record;
    },
    async delete(ctx) {
      const done = await ctx.app.services.dns.deleteRecord(
        ctx.uid,
        Number(ctx.params.zoneId),
        Number(ctx.params.recordId),
        ctx.query.label,
      );
      await recordActivity(ctx, `Deleted a DNS record of zone ${ctx.params.zoneId}`);
      return done;
    },
  },
});
