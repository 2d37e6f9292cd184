import { TEAM_LIMITS, teamInvites } from '../../resources/teams';
import { HttpError, notFound } from '../../server/http/errors';
import { defineHandlers, loadedChild } from '../../server/http/handlers';
import type { Mail } from '../../server/mail/mailer';
import { recordActivity } from '../../server/handlers/activity';
import type { Db } from '../../server/db/database';
import { assertWithinPlan } from '../plans/serverApi';

/** The mail of an invitation to a team (sent by the team's update, teamHandlers). */
export function invitationMail(to: string, from: string, team: string, link: string): Mail {
  return {
    to,
    subject: `${from} invites you to the team ${team} on Stackdeck`,
    text:
      `${from} invites you to join the team "${team}" on Stackdeck. Members see and manage the ` +
      `servers shared with the team.\n\nAccept the invitation at ${link}\n\n` +
      `No Stackdeck account yet? Register with this address (${to}), then open the link again ` +
      `or the Team page: the invitation waits there. It is valid for ${TEAM_LIMITS.inviteDays} ` +
      `days. If you do not know the sender, ignore this mail.\n`,
    secrets: [link],
  };
}

export const teamInviteHandlers = defineHandlers(teamInvites, {
  async list(ctx) {
    const user = await ctx.app.services.users.findById(ctx.uid);
    if (!user) throw notFound();
    return ctx.app.services.teamInvites.invitesTo(user.email, ctx.query);
  },

  actions: {
    async accept(ctx) {
      const repo = ctx.app.services.teams;
      const invite = loadedChild(ctx.child);
      if (invite.expires_at < new Date().toISOString())
        throw new HttpError(410, 'This invitation has expired: ask the team owner for a new one');
      // The team's owner's plan (who pays) must hold one more member: checked again here, as
      // the plan may have changed since the invitation (a member replaces their invitation).
      const owner = await ctx.app.db
        .selectFrom('teams')
        .select('owner_id')
        .where('id', '=', invite.team_id)
        .executeTakeFirst();
      const within = (trx: Db) =>
        owner
          ? assertWithinPlan(trx, {
              caller: ctx.caller,
              ownerId: owner.owner_id,
              what: 'team_members',
              adding: 0,
            })
          : Promise.resolve();
      if (!(await ctx.app.services.teamInvites.accept(invite, ctx.uid, within)))
        throw notFound('No invitation waits for you under this link');
      const team = await repo.findOwned(ctx.uid, invite.team_id);
      if (!team) throw notFound('No such team');
      await recordActivity(ctx, `Joined the team "${team.name}"`);
      return repo.record(team, ctx.uid);
    },

    async decline(ctx) {
      const invite = loadedChild(ctx.child);
      await ctx.app.services.teamInvites.deleteInvite(invite.id);
      return { declined: true as const };
    },
  },
});
