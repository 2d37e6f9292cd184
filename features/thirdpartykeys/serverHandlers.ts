import { recordActivity } from '../../server/handlers/activity';
import { HttpError } from '../../server/http/errors';
import { type HandlerContext, defineHandlers } from '../../server/http/handlers';
import { INTEGRATIONS, type IntegrationId } from './integrations';
import { thirdPartyKeys } from './resource';
import { toKeyRecord } from './serverRepository';

/** A credential as a client sends it, checked by the route's schema. */
export interface NewKey {
  integration: IntegrationId;
  label: string;
  api_url?: string;
  key_id?: string;
  secret: string;
}

const labelTaken = (label: string) =>
  new HttpError(409, `The label "${label}" is in use already: choose another`);

/**
 * Checks and stores a new credential for the path's user: `POST thirdpartykeys`, and the DNS
 * feature's `POST {dnsprovider}/users/{uid}` (through serverApi.ts).
 */
export async function storeKey(ctx: HandlerContext, key: NewKey) {
  const { thirdPartyKeys: keys, credentials } = ctx.app.services;
  if (await keys.findByLabel(ctx.uid, key.label)) throw labelTaken(key.label);
  const fields = { api_url: key.api_url ?? null, key_id: key.key_id ?? null, secret: key.secret };
  const checked = await credentials.check(ctx.app, key.integration, fields);
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
    return storeKey(ctx, ctx.body);
  },
  async update(ctx) {
    const { thirdPartyKeys: keys, credentials } = ctx.app.services;
    // The path's key, loaded through `{uid}` by the request hook (another user's is a 404).
    const row = ctx.child;
    const label = ctx.body.label ?? row.label;
    if (label !== row.label && (await keys.findByLabel(ctx.uid, label))) throw labelTaken(label);
    const fields = {
      api_url: ctx.body.api_url ?? row.api_url,
      key_id: ctx.body.key_id ?? row.key_id,
      secret: ctx.body.secret,
    };
    const checked = await credentials.check(ctx.app, row.integration, fields);
    const saved = await keys.replace(row.id, { ...fields, label, checked });
    await recordActivity(ctx, `Replaced the credential of integration "${label}"`);
    return toKeyRecord(saved);
  },
  async delete(ctx) {
    const row = ctx.child;
    await ctx.app.services.thirdPartyKeys.delete(row.id);
    await recordActivity(ctx, `Disconnected integration "${row.label}"`);
    return toKeyRecord(row);
  },
  actions: {},
});
