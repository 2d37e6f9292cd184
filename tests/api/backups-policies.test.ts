import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUPS_RUN_JOB, policyScheduleName } from '../../features/backups/jobNames';
import { findFile, findPolicy, findTarget } from '../../features/backups/serverLoaders';
import { cronOfPolicy } from '../../features/backups/serverPolicies';
import { serverFeatures } from '../../server/features.gen';
import { defineJob } from '../../server/jobs/define';
import { ManagedStore } from '../../server/managed/store';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { insertPolicy } from './backupPolicyRow';

/**
 * Backup policies (features/backups, spec s.7 "Backups"): the rows load only through a user who
 * reaches their server (or owns the policy of a removed server), targets only through their owner.
 */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let serverId: number;

const stamp = () => new Date().toISOString();

async function policyRow(userId: number, sid: number, targetId: number | null = null) {
  return insertPolicy(t.app.db, {
    user_id: userId,
    server_id: sid,
    database_id: 999_999,
    subject: 'raw',
    target_id: targetId,
  });
}

let appId: number;
let dbId: number;

/**
 * The runs' job (`backups.run`) comes with the runs' code; until it is declared, a stand-in of
 * that name lets policies put their schedules on the scheduler (it never runs here: no slot is
 * due within a test).
 */
const declared = serverFeatures.some((f) => f.jobs?.some((j) => j.name === BACKUPS_RUN_JOB));
const standIn = defineJob({
  name: BACKUPS_RUN_JOB,
  payload: z.object({ policy_id: z.number() }),
  handler: () => Promise.resolve(null),
});

const base = (uid = owner.id) => `/api/v1/backups/users/${uid}`;
const one = (id: number, uid = owner.id) => `/api/v1/backups/${id}/users/${uid}`;

async function schedule(id: number) {
  return t.app.db
    .selectFrom('schedules')
    .selectAll()
    .where('name', '=', policyScheduleName(id))
    .executeTakeFirst();
}

beforeAll(async () => {
  t = await buildTestApp({}, declared ? {} : { jobs: { jobs: [standIn] } });
  owner = await t.user();
  stranger = await t.user();
  serverId = (await t.app.services.servers.create(owner.id, { name: 'web1' })).id;
  const app = await new ManagedStore(t.app.db, 'webapps').insert(serverId, {
    name: 'shop',
    webapp_type: 'custom',
    stack_type: 'nginx',
    php_version: '8.2',
    domains: JSON.stringify(['shop.example']),
    web_root: 'public',
    php_settings: '{}',
    sys_user: 'alice',
    parent_id: null,
  });
  appId = app.id;
  const db = await new ManagedStore(t.app.db, 'databases').insert(serverId, {
    name: 'shop_db',
    collation: 'utf8mb4_unicode_ci',
  });
  dbId = db.id;
});
afterAll(() => t.close());

describe('backup rows load through their user', () => {
  it('a policy and its files only for who reaches the server', async () => {
    const id = await policyRow(owner.id, serverId);
    const run = await t.app.db
      .insertInto('backup_runs')
      .values({ backup_id: id, status: 'ok', trigger: 'manual', created_at: stamp() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await findPolicy(t.app.db, owner.id, id))?.id).toBe(id);
    expect(await findPolicy(t.app.db, stranger.id, id)).toBeUndefined();
    expect((await findFile(t.app.db, owner.id, run.id))?.policy.id).toBe(id);
    expect(await findFile(t.app.db, stranger.id, run.id)).toBeUndefined();
  });

  it('a target only for its owner', async () => {
    const target = await t.app.db
      .insertInto('backup_targets')
      .values({
        user_id: owner.id,
        kind: 's3',
        name: 'offsite',
        location: 's3:https://s3.example/bucket',
        hint: '...ABCD',
        credentials: t.app.services.box.seal('{}'),
        created_at: stamp(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await findTarget(t.app.db, owner.id, target.id))?.name).toBe('offsite');
    expect(await findTarget(t.app.db, stranger.id, target.id)).toBeUndefined();
  });
});

describe('backup policies', () => {
  it("are made of an app of the user's server, scheduled in the user's time zone", async () => {
    await t.app.services.users.update(owner.id, { time_zone: 'Europe/Lisbon' });
    const res = await t.call('POST', base(), {
      token: owner.token,
      body: {
        type: 'webapp',
        server_id: serverId,
        webapp_id: appId,
        frequency: 'weekly',
        at: '02:30',
        weekday: 3,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({
      type: 'webapp',
      subject: 'shop',
      server_name: expect.any(String),
      target_name: 'Panel storage',
      timezone: 'Europe/Lisbon',
      schedule_text: 'Every Wednesday at 02:30 (Europe/Lisbon)',
      health: 'never',
      last_run: null,
      stored_bytes: 0,
      excludes: expect.arrayContaining(['logs']),
    });
    expect(made.next_run_at).toMatch(/T\d\d:30:00/);
    const row = await schedule(made.id);
    expect(row).toMatchObject({
      cron: '30 2 * * 3',
      timezone: 'Europe/Lisbon',
      job: 'backups.run',
    });
    expect(JSON.parse(row!.payload)).toEqual({ policy_id: made.id });
  });

  it('refuse an app of another server or a missing one, at the field', async () => {
    const other = (await t.app.services.servers.create(owner.id, { name: 'web2' })).id;
    const res = await t.call('POST', base(), {
      token: owner.token,
      body: { type: 'webapp', server_id: other, webapp_id: appId },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ webapp_id: 'No such web app on this server' });
    const none = await t.call('POST', base(), {
      token: owner.token,
      body: { type: 'database', server_id: serverId },
    });
    expect(none.statusCode).toBe(400);
    expect(Object.keys(none.json().errors)).toEqual(['database_id']);
  });

  it("refuse another user's server as missing", async () => {
    const res = await t.call('POST', base(stranger.id), {
      token: stranger.token,
      body: { type: 'database', server_id: serverId, database_id: dbId },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Pick one of your servers');
  });

  it('keep one policy per subject and storage', async () => {
    const body = {
      type: 'database',
      server_id: serverId,
      database_id: dbId,
      frequency: 'hourly',
      at: '00:15',
    };
    const first = await t.call('POST', base(), { token: owner.token, body });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      subject: 'shop_db',
      schedule_text: 'Every hour at minute 15 (Europe/Lisbon)',
    });
    const twin = await t.call('POST', base(), { token: owner.token, body });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().message).toContain('already has a backup to that storage');
  });

  it('list by type, get with a page of files, change, switch off and on', async () => {
    const list = await t.call('GET', `${base()}?type=webapp`, { token: owner.token });
    expect(list.statusCode, list.body).toBe(200);
    const [policy] = list.json().data;
    expect(list.json().data.every((p: { type: string }) => p.type === 'webapp')).toBe(true);

    for (const status of ['ok', 'failed'] as const)
      await t.app.db
        .insertInto('backup_runs')
        .values({
          backup_id: policy.id,
          status,
          trigger: 'schedule',
          added_bytes: 1000,
          created_at: new Date().toISOString(),
        })
        .execute();
    const got = await t.call('GET', `${one(policy.id)}?page=1&perPage=1`, { token: owner.token });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toMatchObject({ files_total: 2, health: 'unverified', stored_bytes: 2000 });
    expect(got.json().files).toHaveLength(1);
    expect(got.json().last_run.status).toBe('failed');

    const changed = await t.call('PATCH', one(policy.id), {
      token: owner.token,
      body: { frequency: 'monthly', day: 15, at: '04:00', timezone: 'UTC', excludes: ['tmp'] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      schedule_text: 'On day 15 of every month at 04:00 (UTC)',
      excludes: ['tmp'],
    });
    expect((await schedule(policy.id))?.cron).toBe('0 4 15 * *');
    // What a change leaves out stays as it was (no defaults fill it in).
    const kept = await t.call('PATCH', one(policy.id), {
      token: owner.token,
      body: { keep_last: 3 },
    });
    expect(kept.json()).toMatchObject({ keep_last: 3, frequency: 'monthly', excludes: ['tmp'] });
    const bad = await t.call('PATCH', one(policy.id), {
      token: owner.token,
      body: { timezone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ timezone: 'Unknown time zone "Mars/Olympus"' });

    const off = await t.call('PATCH', `/api/v1/manage-backups/${policy.id}/users/${owner.id}`, {
      token: owner.token,
      body: { enabled: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, health: 'paused', next_run_at: null });
    expect(await schedule(policy.id)).toBeUndefined();
    const on = await t.call('PATCH', `/api/v1/manage-backups/${policy.id}/users/${owner.id}`, {
      token: owner.token,
      body: { enabled: true },
    });
    expect(on.json().enabled).toBe(true);
    expect(await schedule(policy.id)).toBeDefined();
    expect(
      cronOfPolicy({ frequency: 'daily', at: '23:05', weekday: 0, day: 1, timezone: 'UTC' }),
    ).toBe('5 23 * * *');
  });

  it("are another user's as missing", async () => {
    const list = await t.call('GET', base(), { token: owner.token });
    const id = list.json().data[0].id;
    const res = await t.call('GET', one(id, stranger.id), { token: stranger.token });
    expect(res.statusCode).toBe(404);
  });

  it("the admin lists a user's policies", async () => {
    const admin = await t.user({ admin: true });
    const res = await t.call('GET', `/api/v1/admin/backups?uid=${owner.id}&type=database`, {
      token: admin.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { subject: string; type: string }[];
    expect(data.map((p) => p.subject)).toContain('shop_db');
    expect(data.every((p) => p.type === 'database')).toBe(true);
    const unknown = await t.call('GET', '/api/v1/admin/backups?uid=999999', { token: admin.token });
    expect(unknown.statusCode).toBe(404);
  });

  it("a removed server's policies are switched off and kept for their owner", async () => {
    const gone = (await t.app.services.servers.create(owner.id, { name: 'gone' })).id;
    const made = await t.call('POST', base(), {
      token: owner.token,
      body: {
        type: 'database',
        server_id: gone,
        database_id: (
          await new ManagedStore(t.app.db, 'databases').insert(gone, {
            name: 'old_db',
            collation: 'utf8mb4_unicode_ci',
          })
        ).id,
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id;
    const server = await t.app.db
      .selectFrom('servers')
      .selectAll()
      .where('id', '=', gone)
      .executeTakeFirstOrThrow();
    const { removeServer } = await import('../../server/handlers/servers/removal');
    await removeServer(t.app, server, t.app.log);
    expect(await schedule(id)).toBeUndefined();
    const got = await t.call('GET', one(id), { token: owner.token });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toMatchObject({
      enabled: false,
      server_name: 'A removed server',
      health: 'paused',
    });
    const on = await t.call('PATCH', `/api/v1/manage-backups/${id}/users/${owner.id}`, {
      token: owner.token,
      body: { enabled: true },
    });
    expect(on.statusCode).toBe(409);
  });
});
