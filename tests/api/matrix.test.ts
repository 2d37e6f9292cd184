import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type PdnsServer, startPdns } from '../dns/pdns';
import { type FakeCloudflare, startFakeCloudflare } from '../fakes/cloudflare';
import { type FakeS3, startFakeS3 } from '../fakes/s3';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import {
  ADMIN,
  type AppRoute,
  type DnsAccount,
  type Fixture,
  HOLDER,
  OFFLINE,
  QUEUED,
  OWNER_ONLY,
  PUBLIC,
  type Role,
  type Row,
  SELF,
  SELF_STAFF,
  SHARED,
  STAFF,
  type Statuses,
  USER,
  appOn,
  appRoutes,
  childRoutes,
  derivedManagedRows,
  ownedRoutes,
  panelRoutes,
  managedChild,
  type QueryIdRoute,
  queryIdRoutes,
  shareWithTeam,
} from './matrix/support';
import { ManagedStore } from '../../server/managed/store';
import { featureChildLoader, managedKinds } from '../../server/features';
import { PLAN_IDS } from '../../features/plans/api';

/**
 * Each feature's rows (tests/api/matrix/*.rows.ts) join the matrix, with the makers of its
 * children on a stranger's server for the derived rows.
 */
const featureModules = Object.values(
  import.meta.glob<{
    rows: Row[];
    children?: Record<string, ChildMaker>;
    owned?: Record<string, OwnedMaker>;
  }>('./matrix/*.rows.ts', { eager: true }),
);
const featureRows = featureModules.flatMap((module) => module.rows);

/**
 * The authorization matrix of every route of the Foundation issue: who gets which status.
 *
 * Columns: the account holder (owner), another signed-in user naming the owner's id (other: a
 * foreign id answers 404, never 403 with data), admin staff, an admin, nobody (anonymous) and an
 * admin acting as the owner through POST admin/act-as/users/{uid}, a member of the owner's team
 * that shares the fixture server (member) and a member removed from it (removed). On server
 * routes the member and the removed member name themselves in `{uid}`: the member reaches the
 * shared server, the removed member is refused on the request right after the removal.
 */
/** A valid OpenSSH ed25519 public key, different every call. */
function newPublicKey(): string {
  const raw = generateKeyPairSync('ed25519')
    .publicKey.export({ format: 'der', type: 'spki' })
    .subarray(-32);
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} test`;
}

/** A system user or key row on a server, as the managed store writes it, then settled. */
async function accountRow(
  t: TestApp,
  serverId: number,
  table: 'sysusers' | 'pubkeys',
  status: 'active' | 'failed',
): Promise<number> {
  const store = new ManagedStore(t.app.db, table);
  const columns =
    table === 'sysusers'
      ? { user_name: `u${randomUUID().slice(0, 8)}`, quota_hard: 0, quota_soft: 0 }
      : {
          user_name: 'root',
          label: 'test',
          type: 'ssh-ed25519',
          fingerprint: `SHA256:${randomUUID()}`,
          public_key: newPublicKey(),
        };
  const row = await store.insert(serverId, columns);
  await store.settle(row, status === 'active' ? { status } : { status, error: 'test' });
  return row.id;
}

/** A system user or key the panel wrote but the server never got. */
const failedUser = ({ t, serverId }: Fixture) => accountRow(t, serverId, 'sysusers', 'failed');
const failedKey = ({ t, serverId }: Fixture) => accountRow(t, serverId, 'pubkeys', 'failed');

/**
 * A child of each resource with children, on a given server: the derived rows name one on a
 * server of another tenant's. Active, so a loader that let it through would reach the agent.
 * A new child resource adds its maker here (the derived test fails until it does).
 */
type ChildMaker = (t: TestApp, serverId: number, appId?: number) => Promise<number | string>;
const CHILD_MAKERS: Record<string, ChildMaker> = {
  // Server-managed kinds: a row from the resource's example (a feature may make its own below).
  ...Object.fromEntries(
    managedKinds.map((kind) => [
      kind.resource,
      (t: TestApp, sid: number, appId?: number) => managedChild(t, kind, sid, appId),
    ]),
  ),
  ...Object.assign({}, ...featureModules.map((m) => m.children ?? {})),
  sysusers: (t, serverId) => accountRow(t, serverId, 'sysusers', 'active'),
  pubkeys: (t, serverId) => accountRow(t, serverId, 'pubkeys', 'active'),
};

/**
 * A row of each account resource (a ticket, a zone, a team), of a given user's account: the
 * derived rows name the stranger's under the owner's `{uid}`. Each feature exports its makers
 * as `owned` from its rows file; the derived test fails while one is missing.
 */
type OwnedMaker = (t: TestApp, user: TestUser) => Promise<number | string>;
const OWNED_MAKERS: Record<string, OwnedMaker> = Object.assign(
  {},
  ...featureModules.map((m) => m.owned ?? {}),
);

const CHILD_ROUTES = childRoutes();
const OWNED_ROUTES = ownedRoutes();
const PANEL_ROUTES = panelRoutes();
const APP_ROUTES = appRoutes();
const QUERY_ID_ROUTES = queryIdRoutes();

const photo = `data:image/png;base64,${Buffer.from('not really a png').toString('base64')}`;

const FOUNDATION_ROWS: Row[] = [
  { route: 'GET /api/v1/users/:uid', expect: SELF_STAFF },
  {
    route: 'PUT /api/v1/users/:uid',
    body: (_, role) => ({ City: `City of ${role}` }),
    expect: SELF,
  },
  {
    route: 'DELETE /api/v1/users/:uid',
    body: ({ owner }) => ({ password: owner.password }),
    expect: HOLDER,
    fresh: true,
  },
  {
    route: 'POST /api/v1/users',
    body: () => ({
      user_name: 'New User',
      email: `new-${randomUUID()}@example.com`,
      password: 'a long enough password',
    }),
    expect: PUBLIC(201),
  },
  {
    route: 'POST /api/v1/users/confirm',
    body: async ({ t }) => {
      const row = await t.app.services.users.create({
        email: `unconfirmed-${randomUUID()}@example.com`,
        user_name: 'Unconfirmed',
        password_hash: 'x',
      });
      const { code } = await t.app.services.codes.issue(row.id, 'confirm');
      return { uuid: row.uuid, code };
    },
    expect: PUBLIC(200),
  },
  {
    route: 'GET /api/v1/users/email',
    query: ({ owner }) => `?uuid=${owner.uuid}`,
    expect: PUBLIC(200),
  },
  {
    route: 'POST /api/v1/users/login',
    body: ({ owner }) => ({ email: owner.email, password: owner.password }),
    expect: PUBLIC(200),
  },
  { route: 'POST /api/v1/users/logout', expect: USER, fresh: true },
  { route: 'GET /api/v1/users', query: ({ owner }) => `?em=${owner.email}`, expect: PUBLIC(200) },
  {
    route: 'POST /api/v1/users/password',
    // A fresh reset request per call: checking a code (without `password`) changes nothing.
    body: async ({ t, owner }) => {
      const { id, code } = await t.app.services.codes.issue(owner.id, 'reset');
      return { id, code };
    },
    expect: PUBLIC(200),
  },
  { route: 'GET /api/v1/users/:uid/otp', expect: SELF },
  { route: 'GET /api/v1/users/:uid/email', expect: SELF },
  {
    route: 'POST /api/v1/auth/gen/users/:uid',
    body: ({ owner }) => ({ password: owner.password }),
    expect: HOLDER,
  },
  { route: 'GET /api/v1/images/users/:uid', expect: SELF_STAFF },
  { route: 'PUT /api/v1/images/users/:uid', body: () => ({ data: photo }), expect: SELF },
  { route: 'DELETE /api/v1/images/users/:uid', expect: SELF },
  { route: 'POST /api/v1/users/:uid/totp', expect: HOLDER },
  { route: 'GET /api/v1/authlogs/users/:uid', expect: SELF },
  { route: 'GET /api/v1/accntactivity/users/:uid', expect: SELF },
  { route: 'GET /api/v1/clone-events/users/:uid', expect: SELF },
  { route: 'GET /api/v1/servers/users/:uid', expect: SELF_STAFF },
  // Servers: records and lifecycle (no agent needed).
  {
    route: 'POST /api/v1/servers/users/:uid',
    query: () => '?action=create',
    body: (_, role) => ({ name: `made by ${role}` }),
    expect: SELF,
    // Another tenant's `?sid=` in a call that reads (the install script), not one that makes.
    idsQuery: () => '?action=script',
  },
  { route: 'GET /api/v1/servers/:sid/users/:uid', expect: { ...SELF_STAFF, member: 200 } },
  {
    route: 'PUT /api/v1/servers/:sid/users/:uid',
    body: (_, role) => ({ name: `renamed by ${role}` }),
    expect: SHARED,
  },
  {
    route: 'DELETE /api/v1/servers/:sid/users/:uid',
    // A new server of the owner's, shared with the team: a member may not remove it.
    target: async (f) =>
      shareWithTeam(f, (await f.t.app.services.servers.create(f.owner.id, {})).id),
    expect: OWNER_ONLY,
  },
  { route: 'GET /api/v1/servers/:sid/events/users/:uid', expect: SHARED },
  {
    route: 'GET /api/v1/stats/servers/:sid/users/:uid',
    query: () => '?range=month',
    expect: SHARED,
  },
  { route: 'GET /api/v1/activity/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/transfer/servers/:sid/users/:uid',
    body: () => ({ email: `someone-${randomUUID()}@example.com` }),
    expect: { ...HOLDER, member: 403 },
  },
  {
    route: 'GET /api/v1/transfer',
    // An offer to nobody here: for every caller it is as if there were none.
    query: () => `?uuid=${randomUUID()}&processed=true`,
    expect: { ...PUBLIC(404), anonymous: 401 },
  },
  // Servers: ops on the machine (the agent is offline).
  { route: 'GET /api/v1/ping/servers/:sid/users/:uid', expect: OFFLINE },
  { route: 'POST /api/v1/reboot/servers/:sid/users/:uid', expect: OFFLINE },
  { route: 'GET /api/v1/ostz/servers/:sid/users/:uid', expect: OFFLINE },
  { route: 'PATCH /api/v1/cleanup/servers/:sid/users/:uid', expect: OFFLINE },
  {
    route: 'PUT /api/v1/hostname/servers/:sid/users/:uid',
    body: () => ({ hostname: 'web-2' }),
    expect: OFFLINE,
  },
  { route: 'GET /api/v1/servicemgmt/servers/:sid/users/:uid', expect: OFFLINE },
  {
    route: 'PATCH /api/v1/servicemgmt/servers/:sid/users/:uid',
    query: () => '?action=restart',
    body: () => ({ service: 'nginx' }),
    expect: OFFLINE,
  },
  { route: 'GET /api/v1/sshconfig/servers/:sid/users/:uid', expect: OFFLINE },
  {
    route: 'PATCH /api/v1/sshconfig/servers/:sid/users/:uid',
    body: () => ({ port: 2222 }),
    expect: OFFLINE,
  },
  // System users and SSH keys are server-managed: written first, they wait (202) for the
  // offline fixture server, and the sweeper applies them when it is back.
  { route: 'GET /api/v1/sysusers/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/sysusers/servers/:sid/users/:uid',
    body: (_, role) => ({ user_name: `u-${role}`, password: 'a long system password' }),
    expect: QUEUED,
  },
  { route: 'GET /api/v1/sysusers/:id/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'PUT /api/v1/sysusers/:id/servers/:sid/users/:uid',
    body: () => ({ password: 'another long password' }),
    expect: QUEUED,
  },
  {
    route: 'DELETE /api/v1/sysusers/:id/servers/:sid/users/:uid',
    target: failedUser,
    expect: QUEUED,
  },
  { route: 'GET /api/v1/pubkeys/servers/:sid/users/:uid', expect: SHARED },
  {
    route: 'POST /api/v1/pubkeys/servers/:sid/users/:uid',
    body: () => ({ label: 'laptop', user_name: 'root', key: newPublicKey() }),
    expect: QUEUED,
  },
  {
    route: 'DELETE /api/v1/pubkeys/:id/servers/:sid/users/:uid',
    target: failedKey,
    expect: QUEUED,
  },
  { route: 'GET /api/v1/admin/users', expect: STAFF },
  { route: 'POST /api/v1/admin/act-as/users/:uid', expect: ADMIN },
  { route: 'GET /api/v1/admin/dashboard', expect: ADMIN },
  { route: 'GET /api/v1/admin/outbox', expect: ADMIN },
  { route: 'GET /api/v1/admin/outbox/:id', expect: ADMIN },
];

const handWritten = [...FOUNDATION_ROWS, ...featureRows];
const ROWS: Row[] = [
  ...handWritten,
  ...derivedManagedRows(new Set(handWritten.map((row) => row.route))),
];

let t: TestApp;
let cf: FakeCloudflare;
let pdns: PdnsServer;
let s3: FakeS3;
let admin: TestUser;
let other: TestUser;
let staff: TestUser;
let fixture: Fixture;
let tokens: Record<Role, string | undefined>;

async function newOwner(): Promise<Fixture['owner']> {
  // On Pro: no plan limit in the way of the rows (tests/api/plan-limits.test.ts tests them).
  const owner = await t.user({ plan: PLAN_IDS.pro });
  const row = await t.app.services.users.findById(owner.id);
  return { ...owner, uuid: row!.uuid };
}

/**
 * A DNS provider account of the owner's, added through the API, and a zone `zone` made in it:
 * Cloudflare is the local fake of its API v4, PowerDNS a real pdns_server on loopback.
 */
async function dnsAccount(
  owner: TestUser,
  provider: 'cloudflare' | 'powerdns',
  account: { api_url: string; secret: string },
  zone: string,
): Promise<DnsAccount> {
  const label = `matrix ${provider}`;
  const added = await t.call('POST', `/api/v1/${provider}/users/${owner.id}`, {
    token: owner.token,
    body: { label, secret: account.secret, ...(provider === 'powerdns' ? account : {}) },
  });
  expect(added.statusCode, added.body).toBe(201);
  const made = await t.call(
    'POST',
    `/api/v1/listapidetails/zones/users/${owner.id}?label=${encodeURIComponent(label)}`,
    { token: owner.token, body: { name: zone } },
  );
  expect(made.statusCode, made.body).toBe(201);
  return { label, ...account, zoneId: (made.json() as { id: number }).id, zone };
}

/** A server of another user's, with one child of each child resource on it. */
async function foreignChildren(stranger: TestUser): Promise<Fixture['foreign']> {
  const server = await t.app.services.servers.create(stranger.id, { name: 'foreign' });
  const children: Record<string, number | string> = {};
  // The children of resources under `app` hang from an app of that server.
  const appId = await appOn(t, server.id);
  const queried = QUERY_ID_ROUTES.map((r) => r.of);
  for (const resource of new Set([...CHILD_ROUTES.map((r) => r.resource), ...queried])) {
    const make = CHILD_MAKERS[resource];
    if (make) children[resource] = await make(t, server.id, appId);
  }
  const owned: Record<string, number | string> = {};
  for (const resource of new Set([...OWNED_ROUTES.map((r) => r.resource), ...queried])) {
    const make = OWNED_MAKERS[resource];
    if (make) owned[resource] = await make(t, stranger);
  }
  return { serverId: server.id, appId, children, owned };
}

beforeAll(async () => {
  [cf, pdns, s3] = await Promise.all([startFakeCloudflare(), startPdns(), startFakeS3()]);
  s3.keys.set('AKIAMATRIX', 'matrix-s3-secret-1234');
  // Cloudflare is the fake; the pdns_server listens on loopback, which the administrator allows.
  t = await buildTestApp({ cloudflareApiUrl: cf.url, outboundAllow: ['127.0.0.1'] });
  [admin, other, staff] = await Promise.all([
    t.user({ admin: true }),
    t.user(),
    t.user({ staff: true }),
  ]);
  const owner = await newOwner();
  const [member, removed] = await Promise.all([t.user(), t.user()]);
  const outboxId = await t.app.services.mailer.send({ to: owner.email, subject: 'Hi', text: 'x' });
  const server = await t.app.services.servers.create(owner.id, { name: 'matrix' });
  // The team, through the API: the owner invites two users who accept, shares the server, and
  // removes one of them again.
  const created = await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
    token: owner.token,
    body: { name: 'Matrix team' },
  });
  const teamId = (created.json() as { id: number }).id;
  const teamPath = `/api/v1/teams/${teamId}/users/${owner.id}`;
  const invited = await t.call('PATCH', teamPath, {
    token: owner.token,
    body: { invite: [member.email, removed.email], share: [server.id] },
  });
  expect(invited.statusCode, invited.body).toBe(200);
  for (const user of [member, removed]) {
    const invite = /invite=([0-9a-f-]{36})/.exec((await t.lastMail(user.email))!.text_body)![1];
    const accepted = await t.call('POST', `/api/v1/team-invites/${invite}/users/${user.id}`, {
      token: user.token,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  }
  const removal = await t.call('PATCH', teamPath, {
    token: owner.token,
    body: { remove: [removed.id] },
  });
  expect(removal.statusCode, removal.body).toBe(200);
  const dns = {
    cloudflare: await dnsAccount(
      owner,
      'cloudflare',
      { api_url: cf.url, secret: cf.token },
      'cf.matrix.test',
    ),
    powerdns: await dnsAccount(
      owner,
      'powerdns',
      { api_url: pdns.apiUrl, secret: pdns.apiKey },
      'pdns.matrix.test',
    ),
  };
  fixture = {
    t,
    owner,
    member,
    removed,
    teamId,
    outboxId,
    serverId: server.id,
    appId: await appOn(t, server.id),
    itemId: 0,
    dns,
    s3: { url: s3.url, keyId: 'AKIAMATRIX', secret: 'matrix-s3-secret-1234' },
    foreign: await foreignChildren(other),
  };
  fixture.itemId = await failedUser(fixture);
  tokens = {
    owner: owner.token,
    member: member.token,
    removed: removed.token,
    other: other.token,
    staff: staff.token,
    admin: admin.token,
    anonymous: undefined,
    acting: await t.actAs(admin.token, owner.id),
  };
});
afterAll(async () => {
  await t?.close();
  await Promise.all([cf?.close(), pdns?.stop(), s3?.close()]);
});

async function urlOf(
  row: Row,
  f: Fixture,
  role: Role,
  target?: number | string,
  params: Record<string, string | number> = {},
): Promise<string> {
  const pattern = row.route.split(' ')[1]!;
  // The row's named parameters first (`:zoneId`, `:recordId`, ...), then the defaults below.
  const path = pattern.replace(/:(\w+)/g, (param, name: string) =>
    Object.hasOwn(params, name) ? encodeURIComponent(String(params[name])) : param,
  );
  const isServerRecord = pattern.startsWith('/api/v1/servers/:sid/');
  // `:sid` is the owner's server, or the fresh target of a server deletion; `:id` is the row's
  // fresh target, else the user or key on server routes and the outbox mail elsewhere.
  // `:teamId` is the owner's team (or a fresh one), `:uuid` the row's target.
  const sid = isServerRecord && target !== undefined ? target : f.serverId;
  const teamId = pattern.includes(':teamId') && target !== undefined ? target : f.teamId;
  const id = target ?? (pattern.includes(':sid') ? f.itemId : f.outboxId);
  // The member reaches the shared server through the team under their own `{uid}`.
  const ownUid = row.ownUid ?? pattern.includes(':sid');
  const uid = ownUid && (role === 'member' || role === 'removed') ? f[role].id : f.owner.id;
  return (
    path
      .replace(':uid', String(uid))
      .replace(':sid', String(sid))
      .replace(':appId', String(f.appId))
      .replace(':teamId', String(teamId))
      .replace(':uuid', String(target ?? ''))
      .replace(':id', String(id)) + ((await row.query?.(f)) ?? '')
  );
}

describe('authorization matrix', () => {
  it.each(ROWS)('$route', async (row) => {
    let f = fixture;
    let roleToken = tokens;
    if (row.fresh) {
      // New sessions for everyone (logout revokes them) and a new owner (deletion removes them).
      f = { ...fixture, owner: await newOwner() };
      const [o, s, a, m, r] = await Promise.all(
        [other, staff, admin, fixture.member, fixture.removed].map((u) =>
          t.login(u.email, u.password),
        ),
      );
      roleToken = {
        owner: f.owner.token,
        member: m,
        removed: r,
        other: o,
        staff: s,
        admin: a,
        anonymous: undefined,
        acting: await t.actAs(a!, f.owner.id),
      };
    }
    const seen = {} as Statuses;
    // The holder goes last: a destructive call of theirs cannot hide the others' answers.
    for (const role of [
      'anonymous',
      'other',
      'removed',
      'staff',
      'member',
      'acting',
      'admin',
      'owner',
    ] as Role[]) {
      const [method] = row.route.split(' ');
      const target = row.target ? await row.target(f) : undefined;
      const params = await row.params?.(f, role);
      const res = await t.call(method as 'GET', await urlOf(row, f, role, target, params), {
        token: roleToken[role],
        body: await row.body?.(f, role),
      });
      seen[role] = res.statusCode;
      if (res.statusCode >= 400) {
        // A refusal carries no record data: only the error shape (a 400 names its fields).
        expect(Object.keys(res.json()).sort(), `${role}: ${res.body}`).toEqual(
          res.statusCode === 400 && 'errors' in res.json()
            ? ['error', 'errors', 'message', 'statusCode']
            : ['error', 'message', 'statusCode'],
        );
      }
    }
    expect(seen).toEqual(row.expect);
  });

  describe("derived: the owner names a child of another tenant's server", () => {
    it('covers child routes, each of them registered', () => {
      const registered = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
      expect(CHILD_ROUTES.length).toBeGreaterThan(0);
      for (const { route } of CHILD_ROUTES) expect(registered, route).toContain(route);
    });

    it.each(CHILD_ROUTES)('$route', async (child) => {
      const { route, resource, param, app } = child;
      const f = fixture;
      const childId = f.foreign.children[resource];
      expect(childId, `no maker in CHILD_MAKERS for "${resource}"`).toBeDefined();
      const [method, pattern] = route.split(' ') as ['GET', string];
      const agentCall = vi.spyOn(t.app.agents, 'call');
      try {
        const seen: Partial<Statuses> = {};
        // The owner, an admin for the owner, and a team member on the shared server all name
        // their own reachable `{sid}` with a child id of the stranger's server.
        for (const role of ['member', 'acting', 'admin', 'owner'] as Role[]) {
          const uid = role === 'member' ? f.member.id : f.owner.id;
          // Under `app`, the owner's own app of that server: only the child is the stranger's.
          const url =
            pattern
              .replace(`:${param}`, String(childId))
              .replace(':sid', String(f.serverId))
              .replace(':appId', String(f.appId))
              .replace(':uid', String(uid)) + (app === 'query' ? `?wsid=${f.appId}` : '');
          const res = await t.call(method, url, {
            token: tokens[role],
            body: method === 'GET' || method === 'DELETE' ? undefined : {},
          });
          seen[role] = res.statusCode;
          expect(Object.keys(res.json()).sort(), `${role}: ${res.body}`).toEqual([
            'error',
            'message',
            'statusCode',
          ]);
        }
        // Whom the guard refuses whatever the path names (the webmail: mail is its owner's) is
        // refused before the child is loaded.
        const byGuard = child.actingRefused ? 403 : 404;
        expect(seen).toEqual({
          member: child.ownerOnly ? 403 : 404,
          acting: byGuard,
          admin: byGuard,
          owner: 404,
        });
        expect(agentCall).not.toHaveBeenCalled();
      } finally {
        agentCall.mockRestore();
      }
      // The stranger's child is still there, untouched.
      const server = await t.app.services.servers.findAccessible(f.foreign.serverId, other.id);
      const load = featureChildLoader(resource);
      const row = (await load!(t.app.db, server!, childId!)) as {
        status: string;
      };
      expect(row?.status).toBe('active');
    });
  });

  describe("derived: the owner names another account's row", () => {
    /** What each role gets naming `value` of `resource` under the owner's `{uid}`. */
    async function answers(route: string, param: string, value: number | string) {
      const [method, pattern] = route.split(' ') as ['GET', string];
      const url = pattern
        .replace(`:${param}`, encodeURIComponent(String(value)))
        .replace(/:(?!uid)\w+/g, '1')
        .replace(':uid', String(fixture.owner.id));
      const seen: Partial<Statuses> = {};
      for (const role of ['acting', 'admin', 'owner'] as Role[]) {
        const res = await t.call(method, url, {
          token: tokens[role],
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        seen[role] = res.statusCode;
      }
      return seen;
    }

    it('covers the account routes that name a row, each of them registered', () => {
      const registered = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
      for (const { route } of OWNED_ROUTES) expect(registered, route).toContain(route);
    });

    it.each(OWNED_ROUTES)(
      '$route {$param}',
      async ({ route, resource, param, actingRefused, holder }) => {
        const value = fixture.foreign.owned[resource];
        expect(value, `no maker (\`owned\` of a rows file) for "${resource}"`).toBeDefined();
        expect(await answers(route, param, value!)).toEqual({
          acting: actingRefused ? 403 : 404,
          admin: actingRefused ? 403 : 404,
          owner: 404,
        });
        // The stranger's row is still there, through its owner (and within their holder).
        const loaders = t.app.rowLoaders.account;
        const held =
          holder &&
          (await loaders.get(holder.resource)!(
            t.app.db,
            other.id,
            fixture.foreign.owned[holder.resource]!,
          ));
        expect(await loaders.get(resource)!(t.app.db, other.id, value!, held)).toBeDefined();
      },
    );

    // A loader that finds the row whoever the path names (what a handler looking a row up by
    // its bare id would do): the derived rows must notice. Reads only: a broken write would
    // change the stranger's row the other rows name.
    it.each(OWNED_ROUTES.filter((r) => r.route.startsWith('GET ')))(
      'fails when the hook stops loading $route through its owner',
      async ({ route, resource, param }) => {
        const loaders = t.app.rowLoaders.account;
        const honest = loaders.get(resource)!;
        loaders.set(resource, (db, _uid, value, held) => honest(db, other.id, value, held));
        try {
          const seen = await answers(route, param, fixture.foreign.owned[resource]!);
          expect(seen.owner).not.toBe(404);
        } finally {
          loaders.set(resource, honest);
        }
      },
    );
  });

  describe("derived: the owner names another tenant's row in the query", () => {
    /** The stranger's row of that kind: their server, a child of it, or a row of their account. */
    function foreignRow(of: string): number | string | undefined {
      if (of === 'servers') return fixture.foreign.serverId;
      return fixture.foreign.children[of] ?? fixture.foreign.owned[of];
    }

    /**
     * The route's own matrix row, its query (or `idsQuery`) with `param` set to `value`: what
     * each role gets, the member on their own `{uid}` where the route names the shared server.
     */
    async function answers(
      route: string,
      param: string,
      value: number | string,
      where: Pick<QueryIdRoute, 'in' | 'list'> = { in: 'query', list: false },
    ) {
      const base = ROWS.find((row) => row.route === route)!;
      const rest = (await (base.idsQuery ?? base.query)?.(fixture)) ?? '';
      const query = new URLSearchParams(rest.replace(/^\?/, ''));
      if (where.in === 'query') query.set(param, String(value));
      // A body id goes in the route's own body (a list of one where the field takes a list).
      const body: Row['body'] =
        where.in === 'body'
          ? async (f, role) => ({
              ...((await base.body?.(f, role)) as object | undefined),
              [param]: where.list ? [value] : value,
            })
          : base.body;
      const row: Row = { ...base, query: () => `?${query}`, body };
      const seen: Partial<Statuses> = {};
      for (const role of ['member', 'acting', 'admin', 'owner'] as Role[]) {
        const [method] = route.split(' ');
        const target = row.target ? await row.target(fixture) : undefined;
        const params = await row.params?.(fixture, role);
        const res = await t.call(method as 'GET', await urlOf(row, fixture, role, target, params), {
          token: tokens[role],
          body: await row.body?.(fixture, role),
        });
        seen[role] = res.statusCode;
        if (res.statusCode >= 400)
          expect(Object.keys(res.json()).sort(), `${role}: ${res.body}`).toEqual(
            // A form's choice is refused at its field (`errors.<param>`).
            res.statusCode === 400
              ? ['error', 'errors', 'message', 'statusCode']
              : ['error', 'message', 'statusCode'],
          );
      }
      return seen;
    }

    it('covers the declared query ids, each on a registered route with a row', () => {
      const registered = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
      expect(QUERY_ID_ROUTES.length).toBeGreaterThan(0);
      for (const { route } of QUERY_ID_ROUTES) {
        expect(registered, route).toContain(route);
        expect(
          ROWS.map((row) => row.route),
          route,
        ).toContain(route);
      }
    });

    it.each(QUERY_ID_ROUTES)('$route ($in: $param)', async (r) => {
      const { route, param, of, actingRefused, refused } = r;
      const value = foreignRow(of);
      expect(value, `no maker of a stranger's "${of}" (CHILD_MAKERS or \`owned\`)`).toBeDefined();
      const agentCall = vi.spyOn(t.app.agents, 'call');
      try {
        // A member the route refuses before any load (an account's route naming the owner's
        // `{uid}`) is refused so here too, as its own row says.
        const own = ROWS.find((row) => row.route === route)!.expect.member;
        const member = own === 403 || own === 404 ? own : refused;
        expect(await answers(route, param, value!, r)).toEqual({
          member,
          acting: actingRefused ? 403 : refused,
          admin: actingRefused ? 403 : refused,
          owner: refused,
        });
        expect(agentCall).not.toHaveBeenCalled();
      } finally {
        agentCall.mockRestore();
      }
    });

    // A loader that finds the row through its real owner, whoever the route names (what a
    // handler looking it up by its bare id would do): the derived rows must notice. Only where
    // the query sent changes nothing: reads, and rows whose `idsQuery` reads.
    it.each(
      QUERY_ID_ROUTES.filter(
        (r) =>
          r.in === 'query' &&
          (r.route.startsWith('GET ') || ROWS.find((row) => row.route === r.route)?.idsQuery),
      ),
    )('fails when the hook stops loading ?$param= of $route through its owner', async (r) => {
      const loaders = t.app.rowLoaders.query;
      const honest = loaders.get(r.of)!;
      const theirs = await t.app.services.servers.findAccessible(
        fixture.foreign.serverId,
        other.id,
      );
      loaders.set(r.of, (app, owner, value) =>
        honest(app, { ...owner, uid: other.id, server: theirs! }, value),
      );
      try {
        const seen = await answers(r.route, r.param, foreignRow(r.of)!);
        expect(seen.owner).not.toBe(r.refused);
      } finally {
        loaders.set(r.of, honest);
      }
    });
  });

  describe('derived: a catalogue of the panel refuses all but admins', () => {
    it.each(PANEL_ROUTES)('$route', async ({ route, guard }) => {
      const [method, pattern] = route.split(' ') as ['GET', string];
      const url = pattern.replace(/:\w+/g, '1');
      const seen: Partial<Statuses> = {};
      for (const role of ['anonymous', 'owner', 'member', 'other', 'acting', 'staff'] as Role[]) {
        const res = await t.call(method, url, {
          token: tokens[role],
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        seen[role] = res.statusCode;
      }
      const staff = guard === 'staff' ? seen.staff : 403;
      expect(seen).toEqual({
        anonymous: 401,
        owner: 403,
        member: 403,
        other: 403,
        acting: 403,
        staff,
      });
    });
  });

  describe("derived: the owner names another tenant's app, or another app's child", () => {
    /**
     * Each role names the app (in the path or as `?wsid=`) and maybe a child; all get 404 but
     * whom the route's guard refuses whatever it names (403: opening a mailbox in Roundcube).
     */
    async function refused(
      { route, app, actingRefused, ownerOnly }: AppRoute,
      appId: number,
      child?: string,
    ) {
      const f = fixture;
      const [method, pattern] = route.split(' ') as ['GET', string];
      const agentCall = vi.spyOn(t.app.agents, 'call');
      try {
        const seen: Partial<Statuses> = {};
        for (const role of ['member', 'acting', 'admin', 'owner'] as Role[]) {
          const uid = role === 'member' ? f.member.id : f.owner.id;
          const url =
            pattern
              .replace(/:(?!sid|uid|appId)\w+/, child ?? '1')
              .replace(':sid', String(f.serverId))
              .replace(':appId', String(appId))
              .replace(':uid', String(uid)) + (app === 'query' ? `?wsid=${appId}` : '');
          const res = await t.call(method, url, {
            token: tokens[role],
            body: method === 'GET' || method === 'DELETE' ? undefined : {},
          });
          seen[role] = res.statusCode;
          expect(Object.keys(res.json()).sort(), `${role}: ${res.body}`).toEqual([
            'error',
            'message',
            'statusCode',
          ]);
        }
        const byGuard = actingRefused ? 403 : 404;
        expect(seen).toEqual({
          member: ownerOnly ? 403 : 404,
          acting: byGuard,
          admin: byGuard,
          owner: 404,
        });
        expect(agentCall).not.toHaveBeenCalled();
      } finally {
        agentCall.mockRestore();
      }
    }

    it.each(APP_ROUTES)("$route: another tenant's app", async (r) => {
      await refused(r, fixture.foreign.appId);
    });

    it.each(APP_ROUTES.filter((r) => r.param))(
      "$route: a child of the server's other app",
      async (r) => {
        // A second app of the owner's own server, and a child of it: named under the first app.
        const other = await appOn(t, fixture.serverId);
        const child = await CHILD_MAKERS[r.resource]!(t, fixture.serverId, other);
        const [, pattern] = r.route.split(' ') as ['GET', string];
        const param = /:(?!sid|uid|appId)(\w+)/.exec(pattern)![1]!;
        await refused({ ...r, route: r.route.replace(`:${param}`, String(child)) }, fixture.appId);
      },
    );
  });

  it('has a row for every route of the API, and no row without a route', () => {
    const registered = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(ROWS.map((r) => r.route).sort()).toEqual(registered);
  });

  it('answers a foreign id exactly like an id that does not exist', async () => {
    const foreign = await t.call('GET', `/api/v1/users/${fixture.owner.id}`, {
      token: other.token,
    });
    const missing = await t.call('GET', '/api/v1/users/999999', { token: other.token });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
  });

  it('a refused call changes nothing', async () => {
    const { owner } = fixture;
    const before = await t.app.services.users.findById(owner.id);
    await t.call('PUT', `/api/v1/users/${owner.id}`, {
      token: other.token,
      body: { City: 'Elsewhere', user_name: 'Hijacked' },
    });
    await t.call('PUT', `/api/v1/images/users/${owner.id}`, {
      token: staff.token,
      body: { data: photo },
    });
    await t.call('POST', `/api/v1/auth/gen/users/${owner.id}`, { token: admin.token });
    const after = await t.app.services.users.findById(owner.id);
    expect(after?.city).toBe(before?.city);
    expect(after?.user_name).toBe(before?.user_name);
    expect(after?.api_key).toBe(before?.api_key);
  });
});
