import { recordActivity } from '../../server/handlers/activity';
import { defineServerFeature } from '../../server/feature';
import { badRequest } from '../../server/http/errors';
import { type HandlerContext, defineHandlers } from '../../server/http/handlers';
import { whoOf } from '../../server/http/who';
import { pageOf } from '../../server/repositories/paging';
import type { PanelSettingsView } from './api';
import { apiCredentials, panelSettings } from './resource';
import {
  credentialRecord,
  mustFindCredential,
  providerTaken,
  splitFields,
} from './serverCredentials';
import * as migration from './serverMigration';
import { describeChanges, readSettings, writeSettings } from './serverSettings';

const now = () => new Date().toISOString();

/** The admin acting (the guard let only admins through), as the audit shows them. */
async function actor(ctx: HandlerContext<unknown, unknown>) {
  const caller = ctx.caller!;
  return { id: caller.id, who: await whoOf(ctx.app.db, caller, caller.id) };
}

async function view(ctx: HandlerContext<unknown, unknown>): Promise<PanelSettingsView> {
  const stored = await readSettings(ctx.app.db);
  return {
    id: 'panel',
    settings: stored.settings,
    updated_at: stored.updatedAt,
    updated_by: stored.updatedBy,
    mail: { smtp_configured: ctx.app.config.smtpUrl !== null, from: ctx.app.config.mailFrom },
  };
}

const settingsHandlers = defineHandlers(panelSettings, {
  actions: {
    read: view,
    async change(ctx) {
      const { db } = ctx.app;
      const { settings } = await readSettings(db);
      const changes = describeChanges(settings, ctx.body);
      if (changes.length) {
        const me = await actor(ctx);
        await writeSettings(db, settings, ctx.body, me.who, now());
        await recordActivity(ctx, `Panel settings: ${changes.join('; ')}`, me.id);
      }
      return view(ctx);
    },
  },
});

const credentialHandlers = defineHandlers(apiCredentials, {
  list: (ctx) =>
    pageOf(
      ctx.app.db.selectFrom('api_credentials').selectAll(),
      ctx.query,
      apiCredentials.ops.list.sort,
    ).then((page) => ({ data: page.data.map(credentialRecord), total: page.total })),
  async delete(ctx) {
    const { db } = ctx.app;
    const row = await mustFindCredential(db, Number(ctx.params.id));
    await db.deleteFrom('api_credentials').where('id', '=', row.id).execute();
    await recordActivity(
      ctx,
      `API credential removed: ${row.provider} "${row.name}"`,
      ctx.caller!.id,
    );
    return credentialRecord(row);
  },
  actions: {
    async add(ctx) {
      const { db } = ctx.app;
      const input = ctx.body;
      const taken = async () => {
        const other = await db
          .selectFrom('api_credentials')
          .select('id')
          .where('provider', '=', input.provider)
          .executeTakeFirst();
        if (other) throw providerTaken(input.provider);
      };
      await taken();
      const { publicFields, secretFields, keyLast4 } = splitFields(input);
      const me = await actor(ctx);
      const at = now();
      const inserted = await db
        .insertInto('api_credentials')
        .values({
          provider: input.provider,
          name: input.name,
          public_fields: JSON.stringify(publicFields),
          secret_sealed: ctx.app.services.box.seal(JSON.stringify(secretFields)),
          key_last4: keyLast4,
          created_by: me.who,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        // Two admins adding the same provider at once: the unique key decides, the same 409.
        .catch(async (error: unknown) => {
          await taken();
          throw error;
        });
      await recordActivity(ctx, `API credential added: ${input.provider} "${input.name}"`, me.id);
      ctx.reply.code(201);
      return credentialRecord(await mustFindCredential(db, inserted.id));
    },
    async replace(ctx) {
      const { db } = ctx.app;
      const row = await mustFindCredential(db, Number(ctx.params.id));
      const input = ctx.body;
      if (input.provider !== row.provider)
        throw badRequest(`This is a ${row.provider} credential`, {
          provider: `This is a ${row.provider} credential`,
        });
      const { publicFields, secretFields, keyLast4 } = splitFields(input);
      const at = now();
      await db
        .updateTable('api_credentials')
        .set({
          name: input.name,
          public_fields: JSON.stringify(publicFields),
          secret_sealed: ctx.app.services.box.seal(JSON.stringify(secretFields)),
          key_last4: keyLast4,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .execute();
      await recordActivity(
        ctx,
        `API credential replaced: ${row.provider} "${input.name}"`,
        ctx.caller!.id,
      );
      return credentialRecord(await mustFindCredential(db, row.id));
    },
  },
});

/** Panel settings and API credentials (issue 26). */
export const server = defineServerFeature({
  handlers: [settingsHandlers, credentialHandlers],
  migrations: { '0065_panel_settings': migration },
});
