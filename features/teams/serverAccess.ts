import { forbidden } from '../../server/http/errors';
import { type HandlerContext, loadedChild } from '../../server/http/handlers';
import type { TeamRepository } from './serverRepository';
import { revokeKeysOfLeavers } from '../sshkeys/serverApi';

type TeamOfPath = NonNullable<Awaited<ReturnType<TeamRepository['findOwned']>>>;

/**
 * The path's team, which the request hook loaded through `{uid}` (TeamRepository.findOwned, the
 * feature's `accountChildren`): one the user neither owns nor belongs to never gets here.
 */
export function teamOf(ctx: HandlerContext<unknown, unknown, TeamOfPath | undefined>): TeamOfPath {
  return loadedChild(ctx.child);
}

/** The path's team if the user owns it: a member may read it, never manage it (403). */
export function ownedTeam(ctx: HandlerContext<unknown, unknown, TeamOfPath | undefined>) {
  const team = teamOf(ctx);
  if (team.standing !== 'owner') throw forbidden("Only the team's owner can manage it");
  return team;
}

/**
 * After a change that can take access away, browsers following the team's servers (and the
 * unshared ones) stop receiving their live reports unless their caller still sees them.
 */
export async function evictLive(ctx: HandlerContext<unknown, unknown>, uuids: string[]) {
  const { servers } = ctx.app.services;
  for (const uuid of new Set(uuids)) {
    await ctx.app.live
      .evict(uuid, async (caller) => Boolean(await servers.visibleByUuid(uuid, caller)))
      .catch((err: unknown) => ctx.req.log.warn({ err }, 'live feed eviction failed'));
  }
}

/**
 * After a change that can take servers away from users: the SSH keys those users added on the
 * servers are taken off them (see revokeKeysOfLeavers); says so for the account's activity.
 */
export async function revokeKeys(ctx: HandlerContext<unknown, unknown>, serverIds: number[]) {
  const { removed, waiting } = await revokeKeysOfLeavers(ctx.app, serverIds, ctx.caller ?? null);
  return [
    removed ? `${removed} SSH key(s) of former members removed from the servers` : '',
    waiting ? `${waiting} SSH key(s) of former members to remove when their server is back` : '',
  ].filter(Boolean);
}
