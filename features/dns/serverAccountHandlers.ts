import { defineHandlers } from '../../server/http/handlers';
import { storeKey, toKeyRecord } from '../thirdpartykeys/serverApi';
import { dnsAccounts } from './resource';

/** DNS provider accounts: the user's third-party keys of a DNS provider. */
export const dnsAccountHandlers = defineHandlers(dnsAccounts, {
  async list(ctx) {
    const page = await ctx.app.services.thirdPartyKeys.list(ctx.uid, { ...ctx.query, kind: 'dns' });
    return { total: page.total, data: page.data.map(toKeyRecord) };
  },
  actions: {
    addPowerdns: (ctx) => storeKey(ctx, { ...ctx.body, integration: 'powerdns' }),
    addCloudflare: (ctx) => storeKey(ctx, { ...ctx.body, integration: 'cloudflare' }),
  },
});
