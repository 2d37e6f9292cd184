import { z } from 'zod';
import { defineResource, id } from './define';
import { serverSchema } from './servers';
import { email } from './user-security';

/** Business limits of teams. */
export const TEAM_LIMITS = {
  /** Members a team holds, the owner not counted, pending invitations counted. */
  members: 50,
  /** Teams one user may own. */
  owned: 20,
  /** Emails one PATCH may invite. */
  invitesPerCall: 20,
  /** An invitation link stays valid this many days. */
  inviteDays: 7,
} as const;

export const teamName = z
  .string()
  .trim()
  .min(2, 'At least 2 characters')
  .max(100, 'At most 100 characters');

export const teamUserSchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  email: z.string(),
  is_owner: z.boolean(),
  /** When the user joined (the team's creation for its owner). */
  joined_at: z.string(),
});

export const teamInviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
});

export const teamServerRefSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  /** The chosen name of a server still pending its install (see servers.pending_name). */
  pending_name: z.string().nullable(),
  connected: z.boolean(),
});

/** A team: its owner and members (`users`), the servers shared with it, pending invitations. */
export const teamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  owner_id: z.number().int(),
  /** The caller owns it (and may manage it). */
  is_owner: z.boolean(),
  /** The owner first, then members by joining date. */
  users: z.array(teamUserSchema),
  servers: z.array(teamServerRefSchema),
  /** Pending invitations; only the owner sees them (empty for members). */
  invites: z.array(teamInviteSchema),
  created_at: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamInput = z.object({ name: teamName });

const ids = (what: string) => z.array(id).max(100, `At most 100 ${what} a call`);

/**
 * `PATCH teams/{teamId}/users/{uid}`, owner only. Every part is optional; the whole change is
 * checked first and applied together, or not at all.
 */
export const teamPatch = z.object({
  name: teamName.optional(),
  /** Addresses to invite; an address with a pending invitation gets a new one (a new link). */
  invite: z
    .array(email)
    .max(TEAM_LIMITS.invitesPerCall, `At most ${TEAM_LIMITS.invitesPerCall} invitations a call`)
    .optional(),
  /**
   * Members to remove (user ids); they lose the team's servers on their next request, and the
   * SSH keys they added on those servers are taken off them.
   */
  remove: ids('members').optional(),
  /** Pending invitations to withdraw (invitation ids). */
  cancel_invites: z.array(z.uuid()).max(100).optional(),
  /** The owner's servers to share with the team. */
  share: ids('servers').optional(),
  /** Servers to stop sharing (the SSH keys members added on them are taken off them). */
  unshare: ids('servers').optional(),
});
export type TeamPatch = z.infer<typeof teamPatch>;

/** An invitation waiting for the caller: addressed to their (confirmed) email. */
export const myInviteSchema = z.object({
  id: z.string(),
  team_id: z.number().int(),
  team_name: z.string(),
  invited_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});

export const teamPhotoSchema = z.object({ user_id: z.number().int(), data: z.string() });
const photoPage = z.object({ data: z.array(teamPhotoSchema), total: z.number().int() });
const photoQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(50),
});

/** Teams (spec 7 "Teams"): list, create, read, change, delete, leave. */
export const teams = defineResource({
  name: 'teams',
  label: 'Teams',
  // A team the `{uid}` user owns or is a member of: the request hook loads `{teamId}` so.
  parent: 'account',
  params: { teamId: 'id' },
  missing: 'No such team',
  schema: teamSchema,
  input: teamInput,
  paths: { list: 'teams/users/{uid}', one: 'teams/{teamId}/users/{uid}' },
  idParam: 'teamId',
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary: 'The teams the user owns or is a member of',
    },
    get: { guard: 'self', summary: 'A team the user owns or is a member of' },
    create: { guard: 'self', summary: 'Create a team owned by the user' },
    update: {
      guard: 'self',
      method: 'PATCH',
      body: teamPatch,
      summary:
        'Owner only: rename, invite by email, withdraw invitations, remove members, share and unshare servers',
    },
    delete: {
      guard: 'self',
      summary:
        "Owner only: delete the team; its members lose the team's servers and the SSH keys they added on them",
      response: z.object({ id: z.number().int(), name: z.string() }),
    },
  },
  actions: {
    leave: {
      method: 'DELETE',
      path: 'team-members/{teamId}/users/{uid}',
      guard: 'self',
      summary:
        'A member leaves the team (the owner deletes it instead) and loses its servers; the SSH keys they added on them are taken off',
      response: z.object({ left: z.literal(true) }),
    },
    photos: {
      method: 'GET',
      path: 'team-user-images/users/{uid}',
      guard: 'self',
      summary: 'Photos (data URLs) of the members and owners of every team of the user',
      query: photoQuery,
      response: photoPage,
    },
    teamPhotos: {
      method: 'GET',
      path: 'team-user-images/{teamId}/users/{uid}',
      guard: 'self',
      summary: "Photos (data URLs) of one team's owner and members; users without one are left out",
      query: photoQuery,
      response: photoPage,
    },
  },
  ui: { listFields: ['name'], formFields: ['name'], recordRepresentation: 'name' },
});

/**
 * Invitations addressed to the caller. The mail links to `/team-manager?invite={uuid}`; an
 * address without an account registers first and finds the invitation here.
 */
export const teamInvites = defineResource({
  name: 'team-invites',
  label: 'Team invitations',
  // An invitation to the `{uid}` user's address: the request hook loads `{uuid}` so.
  parent: 'account',
  params: { uuid: 'uuid' },
  missing: 'No invitation waits for you under this link',
  schema: myInviteSchema,
  paths: { list: 'team-invites/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at'],
      summary: "Pending invitations to the user's email address",
    },
  },
  actions: {
    accept: {
      method: 'POST',
      path: 'team-invites/{uuid}/users/{uid}',
      guard: 'self',
      // Joining a team is the invitee's own consent, not an admin's.
      forbidWhileActing: true,
      summary: 'Accept an invitation to the caller’s address: the caller joins the team',
      response: teamSchema,
    },
    decline: {
      method: 'DELETE',
      path: 'team-invites/{uuid}/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'Decline an invitation to the caller’s address',
      response: z.object({ declined: z.literal(true) }),
    },
  },
});

/** A server reached through a team, with the teams that share it with the user. */
export const teamServerSchema = serverSchema.extend({
  teams: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

export const teamServers = defineResource({
  name: 'team-servers',
  label: 'Team servers',
  schema: teamServerSchema,
  paths: { list: 'team-servers/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['name', 'created_at'],
      summary: 'Servers other users share with teams the user is a member of',
    },
  },
  ui: { listFields: ['name', 'ip4', 'connected'], recordRepresentation: 'name' },
});
