import {
  type ResourceDef,
  childParam,
  declaredRoutes,
  toRoutePattern,
} from '../../../resources/define';
import { resources } from '../../../resources';
import type { TestApp, TestUser } from '../helpers';

/**
 * The authorization matrix's vocabulary, shared by tests/api/matrix.test.ts and the rows of each
 * feature (tests/api/matrix/*.rows.ts, picked up by the test).
 */
export const ROLES = [
  'owner',
  'member',
  'removed',
  'other',
  'staff',
  'admin',
  'anonymous',
  'acting',
] as const;
export type Role = (typeof ROLES)[number];
export type Statuses = Record<Role, number>;

/**
 * `{uid}` must be the caller; admins may name anyone. `member` is a member of a team of the
 * owner's with the fixture server shared, `removed` a former member of that team: on another
 * user's `{uid}` both are strangers (404).
 */
export const SELF: Statuses = {
  owner: 200,
  member: 404,
  removed: 404,
  other: 404,
  staff: 404,
  admin: 200,
  anonymous: 401,
  acting: 200,
};
/** As SELF, and admin staff read it too (they reach Users and Servers). */
export const SELF_STAFF: Statuses = { ...SELF, staff: 200 };
/** Only the account holder: an admin, directly or acting, is refused (password, 2FA, keys). */
export const HOLDER: Statuses = { ...SELF, admin: 403, acting: 403 };
export const USER: Statuses = { ...SELF, member: 200, removed: 200, other: 200, staff: 200 };
export const ADMIN: Statuses = {
  owner: 403,
  member: 403,
  removed: 403,
  other: 403,
  staff: 403,
  admin: 200,
  anonymous: 401,
  acting: 403,
};
export const STAFF: Statuses = { ...ADMIN, staff: 200 };
/**
 * Server routes (`{sid}`): the member calls them on their own `{uid}` with the shared fixture
 * server and passes the tenant check like the owner; the removed member is refused (404) on
 * the very request after their removal.
 */
export const SHARED: Statuses = { ...SELF, member: 200 };
/** As SHARED, for operations only the server's owner may run (the member gets 403). */
export const OWNER_ONLY: Statuses = { ...SELF, member: 403 };
/**
 * Server routes that need the agent: the fixture's server has none, so everyone who passes the
 * guard and the tenant check (the member too, through the team) gets the immediate "server is
 * offline" answer, not a queue.
 */
export const OFFLINE: Statuses = { ...SELF, owner: 409, member: 409, admin: 409, acting: 409 };
export const PUBLIC = (status: number): Statuses =>
  Object.fromEntries(ROLES.map((r) => [r, status])) as Statuses;

export interface Fixture {
  t: TestApp;
  owner: TestUser & { uuid: string };
  /** In the owner's team `teamId`, which shares the fixture server. */
  member: TestUser;
  /** Was in that team and was removed. */
  removed: TestUser;
  teamId: number;
  outboxId: number;
  /** The owner's server (never connected) and rows on it. */
  serverId: number;
  itemId: number;
  /**
   * Another user's server (not shared with anyone here) and, for each resource with children
   * under a server, one child on it: what the derived "foreign child" rows name.
   */
  foreign: { serverId: number; children: Record<string, number> };
  /** The owner's DNS provider accounts, each with one zone, for the DNS rows. */
  dns: Record<'cloudflare' | 'powerdns', DnsAccount>;
  /** An S3 endpoint (tests/fakes/s3.ts) and a key pair it accepts, for credential rows. */
  s3: { url: string; keyId: string; secret: string };
}

/**
 * A DNS provider account of the fixture's owner (on the local fake of Cloudflare's API, or a
 * PowerDNS on loopback) and a zone of it; `api_url` and `secret` add more accounts there.
 */
export interface DnsAccount {
  label: string;
  api_url: string;
  secret: string;
  /** The panel's id of the zone, and its name. */
  zoneId: number;
  zone: string;
}

export interface Row {
  /** Method and route pattern exactly as registered, e.g. `GET /api/v1/users/:uid`. */
  route: string;
  /** Query string to append. */
  query?: (f: Fixture) => string;
  body?: (f: Fixture, role: Role) => unknown | Promise<unknown>;
  expect: Statuses;
  /** Destructive for the caller (logout, account deletion): new owner and tokens for this row. */
  fresh?: boolean;
  /**
   * Destructive for its target (deleting a server, a user, a key): a new one for each role. It
   * fills `:sid` on server records, `:teamId` on team routes, `:uuid`, or else `:id`.
   */
  target?: (f: Fixture) => Promise<number | string>;
  /**
   * Named path parameters (`zoneId` fills `:zoneId`), asked again for each role: a destructive
   * row makes a fresh zone, record or credential per call. They win over the defaults above.
   */
  params?: (f: Fixture, role: Role) => Promise<Record<string, string | number>>;
  /**
   * The member and the removed member name themselves in `{uid}` (default: on server routes,
   * where they reach the owner's shared server through the team; elsewhere the owner's uid).
   */
  ownUid?: boolean;
}

/** Shares one of the owner's servers with the fixture team (a server for a destructive row). */
export async function shareWithTeam(f: Fixture, serverId: number): Promise<number> {
  const repo = f.t.app.services.teams;
  const team = await repo.findFor(f.teamId, f.owner.id);
  if (!team) throw new Error('fixture team missing');
  await repo.apply(team, {
    invite: [],
    remove: [],
    cancelInvites: [],
    share: [serverId],
    unshare: [],
  });
  return serverId;
}

/** A route that names a child of a server (`{id}` under `{sid}`), from the declarations. */
export interface ChildRoute {
  /** As registered, e.g. `DELETE /api/v1/pubkeys/:id/servers/:sid/users/:uid`. */
  route: string;
  resource: string;
  /** The child parameter, e.g. `id`. */
  param: string;
}

/**
 * Every child route the declarations make. Each gets the derived row "the owner names a child
 * that belongs to another tenant's server": 404, and the agent is never asked. A new child
 * route is covered without a hand-written row.
 */
export function childRoutes(): ChildRoute[] {
  return Object.values<ResourceDef>(resources).flatMap((resource) =>
    declaredRoutes(resource).flatMap(({ method, template }) => {
      const param = childParam(template);
      return param === undefined
        ? []
        : [
            {
              route: `${method} /api/v1/${toRoutePattern(template)}`,
              resource: resource.name,
              param,
            },
          ];
    }),
  );
}
