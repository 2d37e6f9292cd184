import type { TestApp } from '../helpers';
import {
  ADMIN,
  type Fixture,
  OFFLINE,
  ROLES,
  type Role,
  type Row,
  SHARED,
  type Statuses,
} from './support';

/**
 * Firewall: the fixture's firewall is off (the default), so the panel keeps list entries,
 * temporary rules, ports and settings without the agent (the server is never connected):
 * whoever passes the guard and the tenant check gets the answer. Reading the server itself
 * (service actions, the live deny list) hears that it is offline.
 */
const CREATED: Statuses = { ...SHARED, owner: 201, member: 201, admin: 201, acting: 201 };
const S = 'servers/:sid/users/:uid';

/** A distinct documentation address per role and route, so no add is a duplicate. */
let n = 0;
const ipFor = (role: Role) => `198.51.100.${ROLES.indexOf(role) * 20 + (n++ % 20) + 1}`;

async function entry(
  t: TestApp,
  serverId: number,
  list: string,
): Promise<{ id: number; ip: string }> {
  n += 1;
  const ip = `203.0.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  const row = await t.app.db
    .insertInto('firewall_entries')
    .values({ server_id: serverId, list, ip, comment: '', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, ip };
}

async function temp(t: TestApp, serverId: number, kind: 'allow' | 'deny'): Promise<number> {
  n += 1;
  const at = Date.now();
  const row = await t.app.db
    .insertInto('firewall_temp')
    .values({
      server_id: serverId,
      kind,
      ip: `192.0.2.${(n % 250) + 1}`,
      port: null,
      comment: '',
      ttl: 3600,
      expires_at: new Date(at + 3_600_000).toISOString(),
      created_at: new Date(at).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The ignore list is fail2ban's: adding or removing an entry writes its jails again on the
 * server, so the offline fixture answers 409 there (and keeps no change).
 */
const listRows = (list: string): Row[] => {
  const live = list === 'csf_ignore';
  return [
    {
      route: `POST /api/v1/csf/${list}/${S}`,
      body: (_f, role) => ({ ip: ipFor(role), comment: role }),
      expect: live ? OFFLINE : CREATED,
    },
    { route: `GET /api/v1/csf/${list}/${S}`, expect: SHARED },
    {
      route: `DELETE /api/v1/csf/${list}/${S}`,
      query: async (f: Fixture) => `?ip=${(await entry(f.t, f.serverId, list)).ip}`,
      expect: live ? OFFLINE : SHARED,
    },
    {
      route: `DELETE /api/v1/csf/${list}/:id/${S}`,
      params: async (f) => ({ id: (await entry(f.t, f.serverId, list)).id }),
      expect: live ? OFFLINE : SHARED,
    },
  ];
};

const tempRows = (kind: 'allow' | 'deny'): Row[] => [
  { route: `GET /api/v1/trules/${kind}/${S}`, expect: SHARED },
  {
    route: `POST /api/v1/trules/${kind}/${S}`,
    body: (_f, role) => ({ ip: ipFor(role), ttl: 600 }),
    expect: CREATED,
  },
  {
    route: `DELETE /api/v1/trules/${kind}/:id/${S}`,
    params: async (f) => ({ id: await temp(f.t, f.serverId, kind) }),
    expect: SHARED,
  },
];

export const rows: Row[] = [
  { route: `GET /api/v1/csf/${S}`, expect: SHARED },
  { route: `PATCH /api/v1/csf/${S}`, body: () => ({ ddos_status: false }), expect: SHARED },
  { route: `GET /api/v1/csf/service/${S}`, query: () => '?action=status', expect: OFFLINE },
  { route: `GET /api/v1/csf/csf-denylist/${S}`, expect: OFFLINE },
  { route: `GET /api/v1/ports/in/${S}`, expect: SHARED },
  { route: `PATCH /api/v1/ports/in/${S}`, body: () => ({ tcp: '22,80,443' }), expect: SHARED },
  { route: `GET /api/v1/ports/out/${S}`, expect: SHARED },
  { route: `PATCH /api/v1/ports/out/${S}`, body: () => ({ tcp: '' }), expect: SHARED },
  ...['csf_allow', 'csf_deny', 'csf_ignore'].flatMap(listRows),
  ...tempRows('allow'),
  ...tempRows('deny'),
];

/** On a stranger's server: an entry of its deny list and a temporary deny. */
export const children = {
  'csf-lists': async (t: TestApp, serverId: number) => (await entry(t, serverId, 'csf_deny')).id,
  trules: (t: TestApp, serverId: number) => temp(t, serverId, 'deny'),
};

rows.push(
  { route: `GET /api/v1/csf/cc/${S}`, expect: SHARED },
  // Nothing loaded in the fixture: an empty choice is the one every caller may save.
  { route: `PATCH /api/v1/csf/cc/${S}`, body: () => ({ countries: [] }), expect: SHARED },
  { route: 'GET /api/v1/admin/country-ranges', expect: ADMIN },
  {
    route: 'POST /api/v1/admin/country-ranges',
    body: () => ({ csv: '192.0.2.0,192.0.2.255,ZZ\n' }),
    expect: ADMIN,
  },
);
