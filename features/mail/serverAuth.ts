/**
 * The mail-authentication calls (authResource.ts): the records to publish per app mail domain,
 * what DNS answers for them, and publishing them into the zone when it is in Stackdeck DNS.
 */
import type { HandlerContext } from '../../server/http/handlers';
import { HttpError } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { zoneHolding, zoneRecordsOf, zoneWriter } from '../dns/serverApi';
import { type MailRecordsAnswer, mailAuth } from './authResource';
import { checkMailDns } from './dnsCheck';
import { applyMailDnsPlan, planMailDnsPublish } from './dnsPublish';
import { type MailDnsValues, spfToPublish } from './dnsValues';
import { appMailValues, mailResolver, recordOut } from './serverAuthValues';

/** `uid`: the DNS accounts are the caller's own (a team member's zones are not the owner's). */
type Ctx = Pick<HandlerContext, 'app' | 'server' | 'webapp' | 'uid'>;
type Pick_ = (v: MailDnsValues) => { records: ReturnType<typeof recordOut>[]; notes?: string[] };

const resolverOf = (ctx: Ctx) => mailResolver(ctx.app.config.mailDnsResolvers);

/** The answer of a values call: per domain the records `pick` takes, and whether publish can. */
async function answer(ctx: Ctx, domain: string | undefined, pick: Pick_) {
  const out: MailRecordsAnswer = { data: [] };
  for (const v of await appMailValues(ctx, domain)) {
    const { records, notes = [] } = pick(v);
    const zone = await zoneHolding(ctx.app.db, ctx.uid, v.domain);
    out.data.push({ domain: v.domain, records, notes, in_stackdeck_dns: Boolean(zone) });
  }
  return out;
}

/** The domain's TXT texts now (none when DNS says nothing or does not answer). */
async function txtNow(ctx: Ctx, domain: string): Promise<string[]> {
  try {
    return (await resolverOf(ctx).resolveTxt(domain)).map((parts) => parts.join(''));
  } catch {
    return [];
  }
}

export const authHandlers = defineHandlers(mailAuth, {
  actions: {
    dkim: (ctx) => answer(ctx, ctx.query.domain, (v) => ({ records: [recordOut(v.dkim)] })),
    dmarc: (ctx) =>
      answer(ctx, ctx.query.domain, (v) => ({
        records: [
          recordOut(v.dmarcOptions.quarantine, 'quarantine'),
          recordOut(v.dmarcOptions.none, 'none'),
        ],
      })),
    mx: (ctx) => answer(ctx, ctx.query.domain, (v) => ({ records: v.mx.map((r) => recordOut(r)) })),
    async spf(ctx) {
      const values = await appMailValues(ctx, ctx.query.domain);
      const now = new Map<string, string[]>();
      for (const v of values) now.set(v.domain, await txtNow(ctx, v.domain));
      return answer(ctx, ctx.query.domain, (v) => {
        const merged = spfToPublish(v, now.get(v.domain) ?? []);
        const notes = [...merged.warnings];
        if (merged.found.length && merged.changed)
          notes.unshift(`Merged into the SPF record DNS answers now: ${merged.found.join(' | ')}`);
        else if (merged.found.length) notes.unshift('DNS already answers this SPF record.');
        return { records: [recordOut({ ...v.spf, content: merged.content })], notes };
      });
    },
    async check(ctx) {
      const resolver = resolverOf(ctx);
      const data = [];
      for (const v of await appMailValues(ctx, ctx.query.domain)) {
        const found = await checkMailDns(v, resolver);
        data.push({ domain: v.domain, ...found });
      }
      return { data };
    },
    async publish(ctx) {
      const [values] = await appMailValues(ctx, ctx.body.domain, ctx.body.dmarc_policy);
      const v = values!;
      const uid = ctx.uid;
      const zone = await zoneHolding(ctx.app.db, uid, v.domain);
      if (!zone)
        throw new HttpError(
          409,
          `The zone of ${v.domain} is not in Stackdeck's DNS: publish these records where it is`,
        );
      const plan = planMailDnsPublish(
        v,
        zone.name,
        await zoneRecordsOf(ctx.app.services, uid, zone),
      );
      await applyMailDnsPlan(plan, zoneWriter(ctx.app.services, ctx.app.db, uid, zone));
      const w = (r: { type: string; name: string; content: string; priority?: number }) => ({
        type: r.type,
        name: r.name,
        content: r.content,
        priority: r.priority ?? null,
      });
      return {
        domain: v.domain,
        zone: plan.zone,
        created: plan.create.map(w),
        updated: plan.update.map((u) => ({ ...w(u.to), from: u.from })),
        removed: plan.remove.map(({ type, fqdn, content }) => ({ type, fqdn, content })),
        notes: plan.notes,
        up_to_date: plan.upToDate,
      };
    },
  },
});
