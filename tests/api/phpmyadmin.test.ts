import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The phpMyAdmin sign-in link's logic with a fake agent: the database user loaded through the
 * server, the server's phpMyAdmin app required, the URL's shape, and no token in the activity
 * log. tests/system/phpmyadmin.test.ts opens the link for real.
 */
let live: LiveApp;
let owner: TestUser;
let stranger: TestUser;
let agent: FakeAgent;
let theirs: FakeAgent;
const TOKEN = 'T0k3n_-abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';
let refuse: string | null = null;

const fakeOps = () => ({
  'webapp.apply': (a: { name: string; user: string }) => ({
    path: `/home/${a.user}/apps/${a.name}`,
  }),
  'mariadb.db.set': () => ({ set: true }),
  'mariadb.user.set': () => ({ set: true }),
  'pma.signon': (a: { account_ttl: number }) => {
    if (refuse) throw new OpError('conflict', refuse);
    return {
      token: TOKEN,
      account: 'sdsso_tp325e_0123456789ab',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
      dropped: a.account_ttl > 0 ? 0 : 1,
    };
  },
});

const at = (p: string, sid = agent.server.id, who = owner) =>
  `/api/v1/${p}/servers/${sid}/users/${who.id}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown, who = owner) =>
  live.t.call(method, url, { token: who.token, body });
const login = (dbuser: number | string, who = owner, sid = agent.server.id) =>
  call('GET', `${at('phpmyadmin-login', sid, who)}?dbuser=${dbuser}`, undefined, who);

async function dbUserOn(who: TestUser, sid: number, name: string): Promise<number> {
  const db = await call('POST', at('databases', sid, who), { name: `${name}_db` }, who);
  expect(db.statusCode, db.body).toBe(201);
  const user = await call(
    'POST',
    at('dbusers', sid, who),
    { name, password: 'a long database password', databases: [db.json().id] },
    who,
  );
  expect(user.statusCode, user.body).toBe(201);
  return user.json().id as number;
}

let shopUser = 0;
let foreignUser = 0;

beforeAll(async () => {
  live = await startLiveApp();
  [owner, stranger] = await Promise.all([live.t.user(), live.t.user()]);
  agent = await startFakeAgent(live, owner, fakeOps(), 'pma-1');
  theirs = await startFakeAgent(live, stranger, fakeOps(), 'pma-2');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  shopUser = await dbUserOn(owner, agent.server.id, 'shop_app');
  foreignUser = await dbUserOn(stranger, theirs.server.id, 'their_app');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('GET phpmyadmin-login/servers/{sid}/users/{uid}', () => {
  it('answers 409 while the server has no phpMyAdmin app, asking the agent nothing', async () => {
    agent.calls.length = 0;
    const res = await login(shopUser);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Install phpMyAdmin on this server first');
    expect(agent.calls.map((c) => c.name)).not.toContain('pma.signon');
  });

  it('answers 404 for a database user of another tenant, or none', async () => {
    for (const id of [foreignUser, 999_999]) {
      const res = await login(id);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('their_app');
    }
    expect(agent.calls.map((c) => c.name)).not.toContain('pma.signon');
    expect(theirs.calls.map((c) => c.name)).not.toContain('pma.signon');
  });

  it('answers 404 for another spelling of its own id (0x.., 1e0), which names no row', async () => {
    // The query's schema would coerce these to the id; the request hook takes plain digits only.
    for (const id of [`0x${shopUser.toString(16)}`, `${shopUser}e0`]) {
      const res = await login(id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe(`No database user #${id} on this server`);
    }
    expect(agent.calls.map((c) => c.name)).not.toContain('pma.signon');
  });

  it('refuses a dbuser that is not an id', async () => {
    const res = await login('abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.dbuser).toMatch(/database user/);
  });

  it('answers the one-time URL on the first domain of the phpMyAdmin app', async () => {
    const app = await call('POST', at('webstacks'), {
      name: 'pma',
      domains: ['pma.example.com', 'db.example.com'],
      sys_user: 'alice',
      web_root: 'public',
    });
    expect(app.statusCode, app.body).toBe(201);
    await live.t.app.db
      .updateTable('webapps')
      .set({ webapp_type: 'phpmyadmin' })
      .where('id', '=', app.json().id as number)
      .execute();
    agent.calls.length = 0;
    const res = await login(shopUser);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toBe(`http://pma.example.com/stackdeck-sso.php?t=${TOKEN}`);
    expect(Date.parse(res.json().expires_at)).toBeGreaterThan(Date.now());
    expect(agent.calls).toEqual([
      {
        name: 'pma.signon',
        args: {
          user: 'alice',
          app: 'pma',
          web_root: 'public',
          db_user: 'shop_app',
          ttl: 60,
          account_ttl: 3600,
        },
      },
    ]);
  });

  it('logs the sign-in by the database user’s name, never the token', async () => {
    const log = await call(
      'GET',
      `/api/v1/activity/servers/${agent.server.id}/users/${owner.id}?perPage=100`,
    );
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('Open phpMyAdmin as shop_app');
    expect(log.body).not.toContain(TOKEN);
    expect(log.body).not.toContain('sdsso_');
  });

  it('passes the agent’s refusal on as 409, and 409 while the server is offline', async () => {
    refuse = 'phpMyAdmin is not set up in this app yet';
    const res = await login(shopUser);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(refuse);
    refuse = null;
    await agent.disconnect();
    const offline = await login(shopUser);
    expect(offline.statusCode).toBe(409);
    await agent.reconnect();
  });
});
