import type { Kysely } from 'kysely';
import { withId } from './helpers';

/** Teams: owners, members, invitations by email, servers shared with a team. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('teams'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_owner').on('teams').column('owner_id').execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('team_invites')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('invited_by', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('team_invites_team_email')
    .on('team_invites')
    .columns(['team_id', 'email'])
    .unique()
    .execute();
  await db.schema.createIndex('team_invites_email').on('team_invites').column('email').execute();

  await db.schema
    .createTable('team_servers')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('server_id', 'integer', (c) =>
      c.notNull().references('servers.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_servers_pk', ['team_id', 'server_id'])
    .execute();
  await db.schema
    .createIndex('team_servers_server')
    .on('team_servers')
    .column('server_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['team_servers', 'team_invites', 'team_members', 'teams']) {
    await db.schema.dropTable(table).execute();
  }
}
