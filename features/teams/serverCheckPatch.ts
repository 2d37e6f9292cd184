import { TEAM_LIMITS, type TeamPatch } from '../../resources/teams';
import { HttpError, badRequest, fieldError, notFound } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import type { TeamRow } from './serverRow';

/** A pending address gets a new link at most this often. */
const RESEND_AFTER_MS = 60_000;

const unique = <T>(values: readonly T[] | undefined): T[] => [...new Set(values ?? [])];

/** Checks the whole change before any of it is written. */
export async function checkPatch(
  ctx: HandlerContext<unknown, unknown>,
  team: TeamRow,
  body: TeamPatch,
) {
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
