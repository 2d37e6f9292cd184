import { INTEGRATIONS, type IntegrationId, thirdPartyKeys } from '../../../resources/integrations';
import { dnsAccounts } from '../../../resources/dns';
import { HttpError, notFound } from '../../http/errors';
import { type HandlerContext, defineHandlers } from '../../http/handlers';
import { toKeyRecord } from '../../repositories/thirdPartyKeys';
import { recordActivity } from '../activity';

interface NewKey {
  integration: IntegrationId;
  label: string;
  api_url?: string;
  key_id?: string;
  secret: string;
}

const labelTaken = (label: string) =>
  new HttpError(409, `The label "${label}" is in use already: choose another`);

/** Checks and stores a new credential for the path's user. */
async function addKey(ctx: HandlerContext<unknown, unknown>, key: NewKey) {
  const { thirdPartyKeys: keys, credentials } = ctx.app.services;
  if (await keys.findByLabel(ctx.uid, key.label)) throw labelTaken(key.label);
  const fields = { api_url: key.api_url ?? null, key_id: key.key_id ?? null, secret: key.secret };
  const checked = await credentials.check(key.integration, fields);
  const row = await keys
    .create(ctx.uid, key.integration, { ...fields, label: key.label, checked })
    .catch(async (error: unknown) => {
      // Two saves of one label at once: the unique index decides.
      if (await keys.findByLabel(ctx.uid, key.label)) throw labelTaken(key.label);
      throw error;
    });
  await recordActivity(
    ctx,
    `Connected ${INTEGRATIONS[key.integration].name} integration "${key.label}"`,
  );
  return toKeyRecord(row);
}

export const thirdPartyKeyHandlers = defineHandlers(thirdPartyKeys, {
  async list(ctx) {
    const page = await ctx.app.services.thirdPartyKeys.list(ctx.uid, ctx.query);
    return { total: page.total, data: page.data.map(toKeyRecord) };
  },
  async create(ctx) {
    ctx.reply.code(201);
    return addKey(ctx, ctx.body as NewKey);
  },
  async update(ctx) {
    const { thirdPartyKeys: keys, credentials } = ctx.app.services;
    const row = await keys.find(ctx.uid, Number(ctx.params.integrationId));
    if (!row) throw notFound('No such integration');
    const body = ctx.body as { label?: string; api_url?: string; key_id?: string; secret: string };
    const label = body.label ?? row.label;
    if (label !== row.label && (await keys.findByLabel(ctx.uid, label))) throw labelTaken(label);
    const fields = {
      api_url: body.api_url ?? row.api_url,
      key_id: body.key_id ?? row.key_id,
      secret: body.secret,
    };
    const checked = await credentials.check(row.integration as IntegrationId, fields);
    const saved = await keys.replace(row.id, { ...fields, label, checked });
    await recordActivity(ctx, `Replaced the credential of integration "${label}"`);
    return toKeyRecord(saved);
  },
  async delete(ctx) {
    const { thirdPartyKeys: keys } = ctx.app.services;
    const row = await keys.find(ctx.uid, Number(ctx.params.integrationId));
    if (!row) throw notFound('No such integration');
    await keys.delete(row.id);
    await recordActivity(ctx, `Disconnected integration "${row.label}"`);
    return toKeyRecord(row);
  },
  actions: {},
});

export const dnsAccountHandlers = defineHandlers(dnsAccounts, {
  async list(ctx) {
    const page = await ctx.app.services.thirdPartyKeys.list(ctx.uid, { ...ctx.query, kind: 'dns' });
    return { total: page.total, data: page.data.map(toKeyRecord) };
  },
  actions: {
    addPowerdns: (ctx) => addKey(ctx, { ...ctx.body, integration: 'powerdns' }),
    addCloudflare: (ctx) => addKey(ctx, { ...ctx.body, integration: 'cloudflare' }),
  },
});
