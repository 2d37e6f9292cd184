import type { Generated, Kysely } from 'kysely';
import type { Db } from '../../server/db/database';
import type { Timestamp } from '../../server/db/columns';
import { withId } from '../../server/db/migrations/helpers';
import { defineHandlers } from '../../server/http/handlers';
import { type ReleaseMirror, releaseMirror } from './resource';

/**
 * The catalogue's mirror, one row. A table of its own rather than a panel-wide key/value
 * settings table: the panel has none yet, the value is typed and owned by this feature, and
 * its migration goes with the feature.
 */
interface AppReleaseMirrorTable {
  id: Generated<number>;
  mirror: string | null;
  /** Null until an admin first sets or clears it. */
  updated_at: Timestamp | null;
}

declare module '../../server/db/schema' {
  interface Database {
    app_release_mirror: AppReleaseMirrorTable;
  }
}

export const mirrorMigration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('app_release_mirror'))
      .addColumn('mirror', 'varchar(500)')
      .addColumn('updated_at', 'varchar(32)')
      .execute();
    // A migration's db is untyped by design (the schema of its time): typed for its own table.
    await (db as unknown as Kysely<{ app_release_mirror: AppReleaseMirrorTable }>)
      .insertInto('app_release_mirror')
      .values({ mirror: null, updated_at: null })
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('app_release_mirror').execute();
  },
};

async function read(db: Db): Promise<ReleaseMirror> {
  const row = await db
    .selectFrom('app_release_mirror')
    .select(['mirror', 'updated_at'])
    .executeTakeFirst();
  return { mirror: row?.mirror ?? null, updated_at: row?.updated_at ?? null };
}

/** The mirror's base address, or null: downloads come from the official URLs. */
export const mirrorOf = async (db: Db): Promise<string | null> => (await read(db)).mirror;

export const mirrorHandlers = defineHandlers(releaseMirror, {
  actions: {
    get: (ctx) => read(ctx.app.db),
    async set(ctx) {
      const { mirror } = ctx.body;
      // The table's one row (the migration wrote it).
      await ctx.app.db
        .updateTable('app_release_mirror')
        .set({ mirror, updated_at: new Date().toISOString() })
        .execute();
      return read(ctx.app.db);
    },
  },
});
