import type { z } from 'zod';
import type { Before } from '../../server/events/types';
import { emit } from '../../server/events/emit';
import { defineServerFeature } from '../../server/feature';
import { adminCatalogue } from '../../server/http/adminCatalogue';
import { HttpError, notFound } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { pageOf } from '../../server/repositories/paging';
import { MAIN_PLAN_IDS, type Plan, bizplans, type planInput, plansForUsers } from './resource';
import * as migration from './serverMigration';
import * as trialMigration from './serverTrialMigration';
import { activePlans, planById, planRecord } from './serverPlans';
import { assertWithinPlan } from './serverLimits';

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * An add-on package no user is on is about to be removed: a feature that holds it (a
     * subscription to it) refuses with an HttpError (409) whose words say to deactivate it.
     */
    'plan.deleting': Before<{ plan: Plan }>;
  }
}

type Input = z.output<typeof planInput>;

const columns = (input: Partial<Input>) => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input))
    if (value !== undefined) out[key] = key === 'active' ? (value ? 1 : 0) : value;
  return out;
};

const catalogue = adminCatalogue({
  table: 'bizplans',
  missing: 'No such package',
  sort: bizplans.ops.list.sort,
  record: planRecord,
  columns,
  // The create call makes add-ons only: the main packages are the fixed plan ids of spec s.9.
  defaults: { kind: 'addon', description: '', currency: 'USD', active: 1 },
  unique: {
    columns: ['name'],
    field: 'name',
    message: (row) => `There is a package named ${row.name} already`,
  },
});

const inUse = (plan: Plan, users: number) =>
  `${users} user${users === 1 ? ' is' : 's are'} on ${plan.name}: deactivate it instead (untick "Offered to new subscribers"), and it stays theirs without being offered`;

const adminHandlers = defineHandlers(bizplans, {
  ...catalogue.handlers,
  list: (ctx) => {
    let query = ctx.app.db.selectFrom('bizplans').selectAll();
    if (ctx.query.kind) query = query.where('kind', '=', ctx.query.kind);
    return pageOf(query, ctx.query, bizplans.ops.list.sort).then((page) => ({
      data: page.data.map(planRecord),
      total: page.total,
    }));
  },
  async delete(ctx) {
    const { db } = ctx.app;
    const plan = planRecord(await catalogue.mustFind(db, Number(ctx.params.id)));
    if (MAIN_PLAN_IDS.includes(plan.id))
      throw new HttpError(
        409,
        `${plan.name} is a main package (plan id ${plan.id}): it cannot be removed; deactivate it instead`,
      );
    const users = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('plan_id', '=', plan.id)
      .executeTakeFirstOrThrow();
    if (Number(users.n) > 0) throw new HttpError(409, inUse(plan, Number(users.n)));
    await emit(ctx.app, 'plan.deleting', { plan });
    await db.deleteFrom('bizplans').where('id', '=', plan.id).execute();
    return plan;
  },
  actions: {},
});

const userHandlers = defineHandlers(plansForUsers, {
  actions: {
    async offered(ctx) {
      return { data: await activePlans(ctx.app.db) };
    },
    async one(ctx) {
      const id = Number(ctx.params.planId);
      const plan = Number.isSafeInteger(id) ? await planById(ctx.app.db, id) : undefined;
      // A plan no longer offered is still shown to the user who is on it.
      if (!plan) throw notFound('No such plan');
      if (!plan.active) {
        const user = await ctx.app.services.users.findById(ctx.uid);
        if (user?.plan_id !== plan.id) throw notFound('No such plan');
      }
      return plan;
    },
  },
});

/** The panel side of plans (issue 26). */
export const server = defineServerFeature({
  handlers: [adminHandlers, userHandlers],
  migrations: { '0060_bizplans': migration, '0067_trial_limits': trialMigration },
  emits: { 'plan.deleting': 'before' },
  on: {
    /** A new server counts against its owner's plan, in the transaction that writes it. */
    async 'server.creating'({ userId, caller }, { db }) {
      await assertWithinPlan(db, { caller, ownerId: userId, what: 'servers' });
    },
    /**
     * An accepted transfer gives the recipient a server: their plan must hold it (the row names
     * them already, so it is counted; their refusal rolls the transfer back). The recipient is
     * the caller, and an admin's account is not limited.
     */
    async 'server.transferred'({ to }, { db }) {
      await assertWithinPlan(db, {
        caller: { isAdmin: false, isStaff: false },
        ownerId: to,
        what: 'servers',
        adding: 0,
      });
    },
  },
});
