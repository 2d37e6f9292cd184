/**
 * What a plan limits, enforced where the thing is created (issue 26): servers, web apps and team
 * members of an account, against the limits of its plan in force (`users.plan_id`). The account
 * that counts is the one that pays: the server's owner for an app a team member makes on it, the
 * team's owner for a member. Admins and admin staff are not limited, neither their own accounts
 * nor what they do by their own hand; an admin acting as a user (an impersonation token: the
 * caller is then the user, not an admin) is limited as that user.
 */
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../server/db/database';
import { now } from '../../server/db/database';
import { isPostgres } from '../../server/db/dialect';
import { HttpError } from '../../server/http/errors';
import {
  type LimitedThing,
  PLAN_LIMIT_CODE,
  PLAN_UPGRADE_PATH,
  type PlanLimitDetails,
  planLimitWords,
} from './limitWords';
import { type PlanLimits } from './resource';
import { activePlans, limitsIn, planById } from './serverPlans';

/** Who is at the keyboard, as far as limits go (a request's caller; null: the panel itself). */
export interface LimitCaller {
  isAdmin: boolean;
  isStaff: boolean;
}

export interface PlanCheck {
  /** The caller of the request; null for the panel's own work (never limited). */
  caller: LimitCaller | null;
  /** The account that pays: the owner of the server or team, or the user the path names. */
  ownerId: number;
  what: LimitedThing;
  /** How many the change adds (default 1; 0: a re-check of what is there). */
  adding?: number;
  /**
   * The re-check after the new row was written (web apps): the new row is `upToId` and only
   * rows up to it count, so of two written at once the later one is refused.
   */
  upToId?: number;
  /** team members: the addresses invited; those already seated are not counted again. */
  emails?: readonly string[];
}

const LIMIT_KEY: Record<LimitedThing, keyof PlanLimits> = {
  servers: 'servers',
  webapps: 'webapps',
  team_members: 'team_members',
};

/**
 * On PostgreSQL, inside the creator's transaction, the owner's user row is locked first: two
 * creations for one account then count one after the other, so the second sees the first's
 * row. SQLite runs one writer at a time (and the panel one connection), so it needs none.
 * Outside a transaction the lock is released at once: the count there is best-effort.
 */
async function lockOwner(db: Db, ownerId: number): Promise<void> {
  if (!isPostgres(db as unknown as Kysely<unknown>)) return;
  await sql`select id from users where id = ${ownerId} for update`.execute(db);
}

/** The seats of an owner's teams: members' and pending invitations' addresses, lower case. */
export async function teamSeatsOf(db: Db, ownerId: number): Promise<Set<string>> {
  const [members, invites] = await Promise.all([
    db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select('users.email')
      .where('teams.owner_id', '=', ownerId)
      .execute(),
    db
      .selectFrom('team_invites')
      .innerJoin('teams', 'teams.id', 'team_invites.team_id')
      .select('team_invites.email')
      .where('teams.owner_id', '=', ownerId)
      .where('team_invites.expires_at', '>', now())
      .execute(),
  ]);
  return new Set([...members, ...invites].map((r) => r.email.toLowerCase()));
}

/** How many of the thing the account has now. */
export async function usedBy(
  db: Db,
  ownerId: number,
  what: LimitedThing,
  upToId?: number,
): Promise<number> {
  const n = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);
  if (what === 'servers') {
    return n(
      await db
        .selectFrom('servers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', ownerId)
        .executeTakeFirst(),
    );
  }
  if (what === 'webapps') {
    let query = db
      .selectFrom('webapps')
      .innerJoin('servers', 'servers.id', 'webapps.server_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('servers.user_id', '=', ownerId)
      // One being removed is on its way out: it no longer takes a place.
      .where('webapps.status', '!=', 'deleting');
    if (upToId !== undefined) query = query.where('webapps.id', '<=', upToId);
    return n(await query.executeTakeFirst());
  }
  return (await teamSeatsOf(db, ownerId)).size;
}

/** Whether the account is an admin's or admin staff's (never limited). */
async function ownerExempt(db: Db, ownerId: number): Promise<{ exempt: boolean; planId: number }> {
  const owner = await db
    .selectFrom('users')
    .select(['is_admin', 'is_admin_staff', 'plan_id'])
    .where('id', '=', ownerId)
    .executeTakeFirst();
  if (!owner) return { exempt: true, planId: 0 };
  return { exempt: Boolean(owner.is_admin || owner.is_admin_staff), planId: owner.plan_id };
}

/**
 * The refusal when the change would take the account over its plan's limit, or null. Counts
 * itself; call it with the creator's transaction where it has one (see lockOwner).
 */
export async function planLimitRefusal(db: Db, check: PlanCheck): Promise<HttpError | null> {
  if (!check.caller || check.caller.isAdmin || check.caller.isStaff) return null;
  await lockOwner(db, check.ownerId);
  const owner = await ownerExempt(db, check.ownerId);
  if (owner.exempt) return null;
  const plan = await planById(db, owner.planId);
  // A plan id that names no package limits nothing: the panel never strands an account on it.
  if (!plan) return null;
  const limit = limitsIn(plan)[LIMIT_KEY[check.what]];
  if (limit === null) return null;
  let used: number;
  // After the insert the new row is counted already.
  let adding = check.upToId !== undefined ? 0 : (check.adding ?? 1);
  if (check.what === 'team_members' && check.emails) {
    const seats = await teamSeatsOf(db, check.ownerId);
    used = seats.size;
    adding = new Set(check.emails.map((e) => e.toLowerCase()).filter((e) => !seats.has(e))).size;
  } else {
    used = await usedBy(db, check.ownerId, check.what, check.upToId);
  }
  if (used + adding <= limit) return null;
  const key = LIMIT_KEY[check.what];
  // The main plans offered that allow more, cheapest first (the add-ons are not upgrades).
  const upgradeTo = (await activePlans(db))
    .filter((p) => p.kind === 'main' && p.id !== plan.id)
    .filter((p) => {
      const more = limitsIn(p)[key];
      return more === null || more > limit;
    })
    .sort((a, b) => a.monthly_price - b.monthly_price || a.id - b.id)
    .map((p) => p.name);
  const details: PlanLimitDetails = {
    code: PLAN_LIMIT_CODE,
    what: check.what,
    limit,
    // What the account has, the refused new row not counted.
    used: check.upToId !== undefined ? Math.max(0, used - 1) : used,
    plan: { id: plan.id, name: plan.name },
    upgrade: PLAN_UPGRADE_PATH,
    upgrade_to: upgradeTo,
  };
  return new HttpError(
    403,
    planLimitWords({ plan: plan.name, what: check.what, limit, upgradeTo }),
    undefined,
    { ...details },
  );
}

/** Throws the 403 (`code: 'plan_limit'`) when the change would go over the plan's limit. */
export async function assertWithinPlan(db: Db, check: PlanCheck): Promise<void> {
  const refusal = await planLimitRefusal(db, check);
  if (refusal) throw refusal;
}

/**
 * The account's backup storage allowance in bytes from its plan (features/backups' default
 * credit), or null when its plan sets none (or names no package): the backups' own default then.
 */
export async function planBackupBytesOf(db: Db, userId: number): Promise<number | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('bizplans', 'bizplans.id', 'users.plan_id')
    .select('bizplans.backup_storage_gb')
    .where('users.id', '=', userId)
    .executeTakeFirst();
  const gb = row?.backup_storage_gb;
  return gb === null || gb === undefined ? null : gb * 1024 ** 3;
}
