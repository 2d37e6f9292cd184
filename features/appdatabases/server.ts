import type { Kysely } from 'kysely';
import { defineServerFeature } from '../../server/feature';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { databaseHooks, databaseKind, dbUserHooks, dbUserKind } from '../databases/serverApi';
import { webstackdb, webstackdbuser } from './resource';

/**
 * The app's databases are rows of the databases feature's tables with the app's id: the
 * generic handlers under `app` list only the app's rows and write new ones with it, and the
 * request hook has loaded the app through the server. An app that goes leaves its databases to
 * the server (its id is cleared): dropping data is asked for, never a side effect.
 */
const migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['databases', 'dbusers'])
      await db.schema
        .alterTable(table)
        .addColumn('webapp_id', 'integer', (c) => c.references('webapps.id').onDelete('set null'))
        .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['databases', 'dbusers'])
      await db.schema.alterTable(table).dropColumn('webapp_id').execute();
  },
};

// The server's database pages have their own actions (`?userdel=`); the app's calls are lists
// and creates only.
const { actions: _databaseActions, ...databaseCrud } = databaseHooks;

export const server = defineServerFeature({
  migrations: { '0014_app_databases': migration },
  handlers: [
    defineManagedHandlers(webstackdb, databaseKind, databaseCrud),
    // A copy: the hooks are typed for `dbusers`, and checked here member by member against
    // this declaration (the same bodies and queries).
    defineManagedHandlers(webstackdbuser, dbUserKind, { ...dbUserHooks }),
  ],
});
