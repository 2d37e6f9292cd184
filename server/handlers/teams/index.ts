import {
  TEAM_LIMITS,
  teamInvites,
  teamServers,
  teams,
  type TeamPatch,
} from '../../../resources/teams';
import { HttpError, badRequest, fieldError, forbidden, notFound } from '../../http/errors';
import { type HandlerContext, defineHandlers } from '../../http/handlers';
import type { Mail } from '../../mail/mailer';
import { toServerRecord } from '../../repositories/servers';
import type { TeamRow } from '../../repositories/teamRow';
import { recordActivity } from '../activity';
import { revokeKeysOfLeavers } from '../servers/keyRevocation';

function invitationMail(to: string, from: string, team: string, link: string): Mail {
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

/** The path's team if the user owns it or is a member; 404 otherwise, like a missing one. */
async function teamOf(ctx: HandlerContext<unknown, unknown>) {
  const team = await ctx.app.services.teams.findFor(Number(ctx.params.teamId), ctx.uid);
  if (!team) throw notFound('No such team');
  return team;
}

async function ownedTeam(ctx: HandlerContext<unknown, unknown>) {
  const team = await teamOf(ctx);
  if (team.standing !== 'owner') throw forbidden("Only the team's owner can manage it");
  return team;
}

/**
 * After a change that can take access away, browsers following the team's servers (and the
 * unshared ones) stop receiving their live reports unless their caller still sees them.
 */
async function evictLive(ctx: HandlerContext<unknown, unknown>, uuids: string[]) {
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
async function revokeKeys(ctx: HandlerContext<unknown, unknown>, serverIds: number[]) {
  const { removed, waiting } = await revokeKeysOfLeavers(ctx.app, serverIds, ctx.caller ?? null);
  return [
    removed ? `${removed} SSH key(s) of former members removed from the servers` : '',
    waiting ? `${waiting} SSH key(s) of former members to remove when their server is back` : '',
  ].filter(Boolean);
}

/** A pending address gets a new link at most this often. */
const RESEND_AFTER_MS = 60_000;

const unique = <T>(values: readonly T[] | undefined): T[] => [...new Set(values ?? [])];

/** Checks the whole change before any of it is written. */
async function checkPatch(ctx: HandlerContext<unknown, unknown>, team: TeamRow, body: TeamPatch) {
  const repo = ctx.app.services.teams;
  const owner = await ctx.app.services.users.findById(team.owner_id);
  if (!owner) throw notFound('No such team');
  const change = {
    name: body.name,
    invite: unique(body.invite),
    remove: unique(body.remove),
    cancelInvites: unique(body.cancel_invites),
    share: unique(body.share),
    unshare: unique(body.unshare),
  };
  const [members, memberEmails, invites] = await Promise.all([
    repo.memberIds(team.id),
    repo.memberEmails(team.id),
    repo.invitesOf(team.id),
  ]);
  for (const userId of change.remove) {
    if (!members.includes(userId))
      throw fieldError('remove', `User ${userId} is not a member of this team`);
  }
  const inviteIds = new Set(invites.map((i) => i.id));
  for (const inviteId of change.cancelInvites) {
    if (!inviteIds.has(inviteId)) throw fieldError('cancel_invites', 'No such invitation');
  }
  const removedEmails = new Set<string>();
  if (change.remove.length) {
    for (const userId of change.remove) {
      const user = await ctx.app.services.users.findById(userId);
      if (user) removedEmails.add(user.email.toLowerCase());
    }
  }
  for (const email of change.invite) {
    if (email === owner.email.toLowerCase())
      throw fieldError('invite', 'You own this team: invite someone else');
    if (memberEmails.has(email) && !removedEmails.has(email))
      throw fieldError('invite', `${email} is a member of this team already`);
  }
  // A new link for a pending address at most once a minute: invitations are not a way to
  // flood someone's mailbox.
  const recent = new Date(Date.now() - RESEND_AFTER_MS).toISOString();
  for (const email of change.invite) {
    if (invites.some((i) => i.email === email && i.created_at > recent))
      throw new HttpError(
        429,
        `An invitation went to ${email} a moment ago: try again in a minute`,
        {
          invite: 'Invited a moment ago',
        },
      );
  }
  const pending = new Set(
    invites.filter((i) => !change.cancelInvites.includes(i.id)).map((i) => i.email),
  );
  const size =
    members.length -
    change.remove.length +
    pending.size +
    change.invite.filter((e) => !pending.has(e)).length;
  if (change.invite.length && size > TEAM_LIMITS.members) {
    throw fieldError(
      'invite',
      `A team holds at most ${TEAM_LIMITS.members} members and pending invitations`,
    );
  }
  const owned = await repo.ownedAmong(team.owner_id, change.share);
  if (owned.length !== change.share.length) {
    const missing = change.share.find((sid) => !owned.some((s) => s.id === sid));
    throw fieldError('share', `No server of the team's owner has the id ${missing}`);
  }
  if (change.share.some((sid) => change.unshare.includes(sid)))
    throw badRequest('A server cannot be shared and unshared in one change', {
      share: 'Also in unshare',
    });
  return { change, owner, sharedNames: owned.map((s) => s.name) };
}

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
    const body = ctx.body as TeamPatch;
    const { change, owner, sharedNames } = await checkPatch(ctx, team, body);
    const narrowing = change.remove.length > 0 || change.unshare.length > 0;
    const before = narrowing ? await repo.sharedServers(team) : [];
    const written = await repo.apply(team, change);
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
    const fresh = await repo.findFor(team.id, ctx.uid);
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

/** The invitation `uuid`, if it is addressed to the path's user; 404 otherwise. */
async function inviteFor(ctx: HandlerContext<unknown, unknown>) {
  const user = await ctx.app.services.users.findById(ctx.uid);
  const invite = await ctx.app.services.teamInvites.findInvite(String(ctx.params.uuid));
  // An invitation to someone else looks like none at all.
  if (!user || !invite || invite.email !== user.email.toLowerCase())
    throw notFound('No invitation waits for you under this link');
  return invite;
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
      const invite = await inviteFor(ctx);
      if (invite.expires_at < new Date().toISOString())
        throw new HttpError(410, 'This invitation has expired: ask the team owner for a new one');
      if (!(await ctx.app.services.teamInvites.accept(invite, ctx.uid)))
        throw notFound('No invitation waits for you under this link');
      const team = await repo.findFor(invite.team_id, ctx.uid);
      if (!team) throw notFound('No such team');
      await recordActivity(ctx, `Joined the team "${team.name}"`);
      return repo.record(team, ctx.uid);
    },

    async decline(ctx) {
      const invite = await inviteFor(ctx);
      await ctx.app.services.teamInvites.deleteInvite(invite.id);
      return { declined: true as const };
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
