import type { Kysely } from 'kysely';

/**
 * A task may be the run of one long agent op: its id ties the agent's progress events and its
 * late reply (after a reconnection or a panel restart) to the task.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('op_id', 'varchar(36)').execute();
  await db.schema.createIndex('tasks_op').on('tasks').column('op_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tasks_op').execute();
  await db.schema.alterTable('tasks').dropColumn('op_id').execute();
}
