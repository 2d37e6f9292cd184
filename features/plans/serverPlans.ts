/** Reading plans: what the handlers and other features (through serverApi.ts) use. */
import type { Db } from '../../server/db/database';
import type { Plan, PlanLimits } from './resource';
import type { PlanRow } from './serverTables';

export const planRecord = (row: PlanRow): Plan => ({
  ...row,
  active: Boolean(row.active),
});

/** A plan by id, active or not (a user keeps a plan that is no longer offered). */
export async function planById(db: Db, id: number): Promise<Plan | undefined> {
  const row = await db.selectFrom('bizplans').selectAll().where('id', '=', id).executeTakeFirst();
  return row && planRecord(row);
}

/** What a plan allows; undefined for an unknown plan. */
export async function limitsOf(db: Db, planId: number): Promise<PlanLimits | undefined> {
  const plan = await planById(db, planId);
  return plan && limitsIn(plan);
}

export const limitsIn = (plan: Plan): PlanLimits => ({
  servers: plan.max_servers,
  webapps: plan.max_webapps,
  backup_storage_gb: plan.backup_storage_gb,
  team_members: plan.max_team_members,
});

/** The packages offered to subscribers: main plans first, each kind by id. */
export async function activePlans(db: Db): Promise<Plan[]> {
  const rows = await db
    .selectFrom('bizplans')
    .selectAll()
    .where('active', '=', 1)
    .orderBy('kind', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(planRecord);
}
