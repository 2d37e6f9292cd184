import { randomUUID } from 'node:crypto';
import { TEAM_LIMITS } from '../../resources/teams';
import type { Db } from '../../server/db/database';
import { now } from '../../server/db/database';
import type { InviteRow } from './serverInvites';
import type { TeamRow } from './serverRow';

/** An owner's change of a team, checked whole before it is applied. */
export interface TeamChange {
  name?: string;
  invite: string[];
  remove: number[];
  cancelInvites: string[];
  share: number[];
  unshare: number[];
}

/**
 * Applies an owner's change at once. Returns the invitations written (one new id per address:
 * a re-sent invitation invalidates the old link).
 */
export async function applyTeamChange(
  db: Db,
  team: TeamRow,
  change: TeamChange,
  /** Runs last in the transaction, on the changed rows; its error undoes the change. */
  check?: (trx: Db) => Promise<void>,
): Promise<InviteRow[]> {
  const stamp = now();
  const expires = new Date(Date.now() + TEAM_LIMITS.inviteDays * 86_400_000).toISOString();
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('teams')
      .set({ ...(change.name !== undefined ? { name: change.name } : {}), updated_at: stamp })
      .where('id', '=', team.id)
      .execute();
    if (change.remove.length) {
      await trx
        .deleteFrom('team_members')
        .where('team_id', '=', team.id)
        .where('user_id', 'in', change.remove)
        .execute();
    }
    if (change.cancelInvites.length) {
      await trx
        .deleteFrom('team_invites')
        .where('team_id', '=', team.id)
        .where('id', 'in', change.cancelInvites)
        .execute();
    }
    if (change.unshare.length) {
      await trx
        .deleteFrom('team_servers')
        .where('team_id', '=', team.id)
        .where('server_id', 'in', change.unshare)
        .execute();
    }
    if (change.share.length) {
      await trx
        .insertInto('team_servers')
        .values(
          change.share.map((server_id) => ({ team_id: team.id, server_id, created_at: stamp })),
        )
        .onConflict((oc) => oc.columns(['team_id', 'server_id']).doNothing())
        .execute();
    }
    const written: InviteRow[] = [];
    for (const email of change.invite) {
      await trx
        .deleteFrom('team_invites')
        .where('team_id', '=', team.id)
        .where('email', '=', email)
        .execute();
      const row: InviteRow = {
        id: randomUUID(),
        team_id: team.id,
        email,
        invited_by: team.owner_id,
        created_at: stamp,
        expires_at: expires,
      };
      await trx.insertInto('team_invites').values(row).execute();
      written.push(row);
    }
    await check?.(trx);
    return written;
  });
}
