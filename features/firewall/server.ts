import type { Db } from '../../server/db/database';
import type { ServerRow } from '../../server/db/schema';
import { defineServerFeature } from '../../server/feature';
import { countryHandlers } from './serverCountries';
import { listsHandlers, tempHandlersBound } from './serverLists';
import { settingsHandlers } from './serverSettings';
import { migration } from './serverTables';
import { firewallEvents } from './serverEvents';

/** An entry of one of the server's lists, by id (its list is checked by the handler). */
const loadEntry = async (db: Db, server: ServerRow, id: number | string) => {
  const row = await db
    .selectFrom('firewall_entries')
    .selectAll()
    .where('id', '=', Number(id))
    .where('server_id', '=', server.id)
    .executeTakeFirst();
  return row && { ...row, status: 'active' as const };
};

/** A temporary rule of the server still in the table (an expired one is gone). */
const loadTemp = async (db: Db, server: ServerRow, id: number | string) => {
  const row = await db
    .selectFrom('firewall_temp')
    .selectAll()
    .where('id', '=', Number(id))
    .where('server_id', '=', server.id)
    .where('expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  return row && { ...row, status: 'active' as const };
};

declare module '../../server/http/children' {
  interface FeatureChildRows {
    'csf-lists': NonNullable<Awaited<ReturnType<typeof loadEntry>>>;
    trules: NonNullable<Awaited<ReturnType<typeof loadTemp>>>;
  }
}

export const server = defineServerFeature({
  migrations: { '0027_firewall': migration },
  children: { 'csf-lists': loadEntry, trules: loadTemp },
  emits: firewallEvents,
  handlers: [settingsHandlers, listsHandlers, tempHandlersBound, countryHandlers],
});
