import type { Db } from '../../server/db/database';
import { defineServerFeature } from '../../server/feature';
import { HttpError, badRequest, fieldError, notFound } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { pageOf } from '../../server/repositories/paging';
import { codeKey, type CouponInput, coupons, couponsForUsers, termsProblems } from './resource';
import * as migration from './serverMigration';
import { couponRecord, planIdsOf } from './serverRecord';

type Input = CouponInput;
const now = () => new Date().toISOString();

async function mustFind(db: Db, id: number) {
  const row = await db
    .selectFrom('coupons')
    .selectAll()
    .where('id', '=', id)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('No such coupon');
  return row;
}

const taken = (input: Input, retired: boolean) =>
  retired
    ? `${input.code} was the code of a coupon that was redeemed and removed: pick another code`
    : `There is a coupon ${input.code} already (codes ignore case)`;

const adminHandlers = defineHandlers(coupons, {
  list: (ctx) =>
    pageOf(
      ctx.app.db.selectFrom('coupons').selectAll().where('retired_at', 'is', null),
      ctx.query,
      coupons.ops.list.sort,
    ).then((page) => ({ data: page.data.map(couponRecord), total: page.total })),
  async create(ctx) {
    const { db } = ctx.app;
    const input = ctx.body;
    const problems = termsProblems(input);
    if (Object.keys(problems).length)
      // The words of the schema's own 400 (server/plugins/errors.ts): the fields named.
      throw badRequest(`Invalid ${Object.keys(problems).join(', ')}`, problems);
    const planIds = [...new Set(input.plan_ids)].sort((a, b) => a - b);
    if (planIds.length) {
      const found = await db
        .selectFrom('bizplans')
        .select('id')
        .where('id', 'in', planIds)
        .execute();
      const missing = planIds.filter((id) => !found.some((row) => row.id === id));
      if (missing.length) throw fieldError('plan_ids', `No package #${missing.join(', #')}`);
    }
    const key = codeKey(input.code);
    const clash = async () => {
      const other = await db
        .selectFrom('coupons')
        .select('retired_at')
        .where('code_key', '=', key)
        .executeTakeFirst();
      if (other) {
        const message = taken(input, other.retired_at !== null);
        throw new HttpError(409, message, { code: message });
      }
    };
    await clash();
    const at = now();
    const inserted = await db
      .insertInto('coupons')
      .values({
        code: input.code,
        code_key: key,
        kind: input.kind,
        percent_off: input.percent_off,
        amount_off: input.amount_off,
        currency: input.currency,
        duration: input.duration,
        duration_periods: input.duration_periods,
        plan_ids: planIds.join(','),
        expires_at: input.expires_at,
        max_redemptions: input.max_redemptions,
        redeemed: 0,
        active: input.active ? 1 : 0,
        retired_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      // A concurrent create of the same code won the unique key: the same 409.
      .catch(async (error: unknown) => {
        await clash();
        throw error;
      });
    ctx.reply.code(201);
    return couponRecord(await mustFind(db, inserted.id));
  },
  async delete(ctx) {
    const { db } = ctx.app;
    const row = await mustFind(db, Number(ctx.params.id));
    const used = await db
      .selectFrom('coupon_redemptions')
      .select('id')
      .where('coupon_id', '=', row.id)
      .executeTakeFirst();
    if (!used) {
      await db.deleteFrom('coupons').where('id', '=', row.id).execute();
      return couponRecord(row);
    }
    // Its redemptions are the history of discounts given: the coupon stays, retired.
    const at = now();
    await db
      .updateTable('coupons')
      .set({ active: 0, retired_at: at, updated_at: at })
      .where('id', '=', row.id)
      .execute();
    return couponRecord({ ...row, active: 0, retired_at: at, updated_at: at });
  },
  actions: {},
});

const userHandlers = defineHandlers(couponsForUsers, {
  actions: {
    async one(ctx) {
      const { db } = ctx.app;
      const id = Number(ctx.params.couponId);
      if (!Number.isSafeInteger(id)) throw notFound('No such coupon');
      const row = await db
        .selectFrom('coupons')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      const redemption = await db
        .selectFrom('coupon_redemptions')
        .select('redeemed_at')
        .where('coupon_id', '=', id)
        .where('user_id', '=', ctx.uid)
        .executeTakeFirst();
      // A user sees the coupons they redeemed; an admin on their own id, any coupon. Another
      // coupon answers as one that does not exist: ids are not a way to find codes.
      const adminOwnId = ctx.caller?.isAdmin === true && ctx.caller.id === ctx.uid;
      if (!row || (!redemption && !(adminOwnId && row.retired_at === null)))
        throw notFound('No such coupon');
      const coupon = couponRecord(row);
      return {
        id: coupon.id,
        code: coupon.code,
        kind: coupon.kind,
        percent_off: coupon.percent_off,
        amount_off: coupon.amount_off,
        currency: coupon.currency,
        duration: coupon.duration,
        duration_periods: coupon.duration_periods,
        plan_ids: coupon.plan_ids,
        expires_at: coupon.expires_at,
        redeemed_at: redemption?.redeemed_at ?? null,
      };
    },
  },
});

/** The panel side of coupons (issue 26). */
export const server = defineServerFeature({
  handlers: [adminHandlers, userHandlers],
  migrations: { '0061_coupons': migration },
  on: {
    /**
     * A coupon limited to a package would, without it, apply to every package (an empty list
     * means all): its package stays while such a coupon does.
     */
    async 'plan.deleting'({ plan }, { db }) {
      const rows = await db
        .selectFrom('coupons')
        .select(['code', 'plan_ids'])
        .where('plan_ids', '!=', '')
        .where('retired_at', 'is', null)
        .execute();
      const codes = rows.filter((r) => planIdsOf(r.plan_ids).includes(plan.id)).map((r) => r.code);
      if (codes.length)
        throw new HttpError(
          409,
          `The coupon${codes.length === 1 ? '' : 's'} ${codes.join(', ')} ${codes.length === 1 ? 'is' : 'are'} limited to ${plan.name}: remove ${codes.length === 1 ? 'it' : 'them'} first, or deactivate the package`,
        );
    },
  },
});
