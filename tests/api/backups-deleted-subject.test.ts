import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyScheduleName } from '../../features/backups/jobNames';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser, addWebapp } from './serverRows';

/**
 * A deleted app or database (features/backups on `app.deleting` and `database.deleting`): its
 * backup policies are switched off and unscheduled instead of failing every run; their files
 * stay, and the policy says why it is paused. The server is a fake agent whose apps and
 * databases live in memory; the delete itself goes through the panel's real routes.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
const apps = new Set<string>(['shop']);
const dbs = new Set<string>(['shopdb', 'loosedb']);

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(
    live,
    owner,
    {
      'webapp.remove': (a: { name: string }) => ({ removed: apps.delete(a.name) }),
      'mariadb.db.drop': (a: { name: string }) => ({ dropped: dbs.delete(a.name) }),
    },
    'deleted-subject-1',
  );
  await addSysuser(live.t.app.db, agent.server.id, 'shopper');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

const server = () => `servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, ...(body ? { body } : {}) });

async function rows() {
  const stamp = new Date().toISOString();
  const managed = {
    server_id: agent.server.id,
    status: 'active' as const,
    error: null,
    error_field: null,
    created_at: stamp,
    updated_at: stamp,
  };
  const app = {
    id: await addWebapp(live.t.app.db, agent.server.id, {
      name: 'shop',
      domains: ['shop.test'],
      sysUser: 'shopper',
    }),
  };
  const database = async (name: string, webappId: number | null) =>
    (
      await live.t.app.db
        .insertInto('databases')
        .values({ ...managed, name, collation: 'utf8mb4_general_ci', webapp_id: webappId } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  return {
    appId: app.id,
    shopdb: await database('shopdb', app.id),
    loosedb: await database('loosedb', null),
  };
}

interface Policy {
  id: number;
  enabled: boolean;
  health: string;
  paused_reason: string | null;
  next_run_at: string | null;
}

async function policy(body: Record<string, unknown>): Promise<number> {
  const res = await call('POST', `/api/v1/backups/users/${owner.id}`, {
    server_id: agent.server.id,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: number }).id;
}
const got = async (id: number) =>
  (await call('GET', `/api/v1/backups/${id}/users/${owner.id}`)).json() as Policy;
const scheduled = async (id: number) =>
  Boolean(
    await live.t.app.db
      .selectFrom('schedules')
      .select('name')
      .where('name', '=', policyScheduleName(id))
      .executeTakeFirst(),
  );

describe("a deleted app's or database's backups", () => {
  it('are paused with the reason, unscheduled, and cannot be switched on again', async () => {
    const { appId, shopdb, loosedb } = await rows();
    const appPolicy = await policy({ type: 'webapp', webapp_id: appId });
    const appDbPolicy = await policy({ type: 'database', database_id: shopdb });
    const loosePolicy = await policy({ type: 'database', database_id: loosedb });
    for (const id of [appPolicy, appDbPolicy, loosePolicy]) expect(await scheduled(id)).toBe(true);

    // The app goes, with its databases.
    const gone = await call('DELETE', `/api/v1/webstacks/${appId}/${server()}?databases=true`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(apps.has('shop')).toBe(false);
    expect(dbs.has('shopdb')).toBe(false);
    expect(await got(appPolicy)).toMatchObject({
      enabled: false,
      health: 'paused',
      paused_reason: 'Its app was deleted',
      next_run_at: null,
    });
    expect(await got(appDbPolicy)).toMatchObject({
      enabled: false,
      paused_reason: 'Its database was deleted',
    });
    expect(await scheduled(appPolicy)).toBe(false);
    expect(await scheduled(appDbPolicy)).toBe(false);
    // A database that was not the app's runs on.
    expect(await got(loosePolicy)).toMatchObject({ enabled: true, paused_reason: null });
    expect(await scheduled(loosePolicy)).toBe(true);

    // That database deleted on its own: its policy pauses too.
    const dropped = await call('DELETE', `/api/v1/databases/${loosedb}/${server()}`);
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dbs.has('loosedb')).toBe(false);
    expect(await got(loosePolicy)).toMatchObject({
      enabled: false,
      paused_reason: 'Its database was deleted',
    });
    expect(await scheduled(loosePolicy)).toBe(false);

    // The list says so too; switching one on is refused with the reason.
    const list = await call('GET', `/api/v1/backups/users/${owner.id}?type=webapp`);
    expect((list.json() as { data: Policy[] }).data).toEqual([
      expect.objectContaining({ id: appPolicy, paused_reason: 'Its app was deleted' }),
    ]);
    const on = await call('PATCH', `/api/v1/manage-backups/${appPolicy}/users/${owner.id}`, {
      enabled: true,
    });
    expect(on.statusCode).toBe(409);
    expect(on.json().message).toBe('Its app was deleted: the backup cannot run again');
    const change = await call('PATCH', `/api/v1/backups/${loosePolicy}/users/${owner.id}`, {
      enabled: true,
    });
    expect(change.statusCode).toBe(400);
    expect(JSON.stringify(change.json())).toContain('Its database was deleted');
  });
});
