import { TEAM_LIMITS, teamServers, teams } from '../../resources/teams';
import { emit } from '../../server/events/emit';
import { HttpError } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { toServerRecord } from '../../server/repositories/servers';
import { recordActivity } from '../../server/handlers/activity';
import { assertWithinPlan } from '../plans/serverApi';
import { checkPatch } from './serverCheckPatch';
import { invitationMail } from './serverInvitations';
import { evictLive, ownedTeam, revokeKeys, teamOf } from './serverAccess';

export { teamInviteHandlers } from './serverInvitations';

export const teamHandlers = defineHandlers(teams, {
  async list(ctx) {
    const repo = ctx.app.services.teams;
    const page = await repo.listFor(ctx.uid, ctx.query);
    return {
      total: page.total,
      data: await Promise.all(page.data.map((row) => repo.record(row, ctx.uid))),
    };
  },

  async get(ctx) {
    return ctx.app.services.teams.record(await teamOf(ctx), ctx.uid);
  },

  async create(ctx) {
    const repo = ctx.app.services.teams;
    if ((await repo.countOwned(ctx.uid)) >= TEAM_LIMITS.owned)
      throw new HttpError(409, `You own ${TEAM_LIMITS.owned} teams already, the most allowed`);
    const row = await repo.create(ctx.uid, ctx.body.name!);
    await recordActivity(ctx, `Team "${row.name}" created`);
    return repo.record(row, ctx.uid);
  },

  async update(ctx) {
    const repo = ctx.app.services.teams;
    const team = await ownedTeam(ctx);
    const { change, owner, sharedNames } = await checkPatch(ctx, team, ctx.body);
    const narrowing = change.remove.length > 0 || change.unshare.length > 0;
    const before = narrowing ? await repo.sharedServers(team) : [];
    // The owner's plan (who pays) limits the seats of all their teams: members and pending
    // invitations. Counted last in the change's transaction, so removals in the same change
    // free seats and two changes at once are counted one after the other.
    const written = await repo.apply(
      team,
      change,
      change.invite.length
        ? (trx) =>
            assertWithinPlan(trx, {
              caller: ctx.caller,
              ownerId: team.owner_id,
              what: 'team_members',
              adding: 0,
            })
        : undefined,
    );
    for (const userId of change.remove)
      await emit(ctx.app, 'team.member-removed', {
        team: { id: team.id, name: team.name },
        userId,
        serverIds: before.map((s) => s.id),
      });
    if (narrowing)
      await evictLive(
        ctx,
        before.map((s) => s.uuid),
      );
    const revoked = narrowing
      ? await revokeKeys(
          ctx,
          before.map((s) => s.id),
        )
      : [];
    const name = change.name ?? team.name;
    for (const invite of written) {
      const link = `${ctx.app.config.publicUrl}/team-manager?invite=${invite.id}`;
      await ctx.app.services.mailer.send(invitationMail(invite.email, owner.user_name, name, link));
    }
    const done = [
      change.name !== undefined && change.name !== team.name ? `renamed to "${change.name}"` : '',
      written.length ? `${written.length} invitation(s) sent` : '',
      change.cancelInvites.length ? `${change.cancelInvites.length} invitation(s) withdrawn` : '',
      change.remove.length ? `${change.remove.length} member(s) removed` : '',
      sharedNames.length ? `shared ${sharedNames.join(', ')}` : '',
      change.unshare.length ? `${change.unshare.length} server(s) unshared` : '',
      ...revoked,
    ].filter(Boolean);
    if (done.length) await recordActivity(ctx, `Team "${team.name}": ${done.join('; ')}`);
    const fresh = await repo.findOwned(ctx.uid, team.id);
    return repo.record(fresh!, ctx.uid);
  },

  async delete(ctx) {
    const team = await ownedTeam(ctx);
    const before = await ctx.app.services.teams.sharedServers(team);
    await ctx.app.services.teams.delete(team.id);
    await evictLive(
      ctx,
      before.map((s) => s.uuid),
    );
    const revoked = await revokeKeys(
      ctx,
      before.map((s) => s.id),
    );
    await recordActivity(ctx, [`Team "${team.name}" deleted`, ...revoked].join('; '));
    return { id: team.id, name: team.name };
  },

  actions: {
    async leave(ctx) {
      const team = await teamOf(ctx);
      if (team.standing === 'owner')
        throw new HttpError(409, 'The owner cannot leave the team: delete it instead');
      const servers = await ctx.app.services.teams.sharedServers(team);
      await ctx.app.services.teams.removeMember(team.id, ctx.uid);
      await emit(ctx.app, 'team.member-removed', {
        team: { id: team.id, name: team.name },
        userId: ctx.uid,
        serverIds: servers.map((s) => s.id),
      });
      await evictLive(
        ctx,
        servers.map((s) => s.uuid),
      );
      const revoked = await revokeKeys(
        ctx,
        servers.map((s) => s.id),
      );
      await recordActivity(ctx, [`Left the team "${team.name}"`, ...revoked].join('; '));
      return { left: true as const };
    },

    async photos(ctx) {
      const repo = ctx.app.services.teams;
      return repo.photos(await repo.teamIdsOf(ctx.uid), ctx.query);
    },

    async teamPhotos(ctx) {
      const team = await teamOf(ctx);
      return ctx.app.services.teams.photos([team.id], ctx.query);
    },
  },
});

export const teamServerHandlers = defineHandlers(teamServers, {
  async list(ctx) {
    const page = await ctx.app.services.teams.serversSharedWith(ctx.uid, ctx.query);
    return {
      total: page.total,
      data: page.data.map(({ row, teams: sharedBy }) => ({
        ...toServerRecord(row, ctx.app.live.get(row.id)),
        teams: sharedBy,
      })),
    };
  },
  actions: {},
});
