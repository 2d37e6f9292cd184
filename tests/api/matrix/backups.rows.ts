import { randomUUID } from 'node:crypto';
import { ManagedStore } from '../../../server/managed/store';
import type { TestApp, TestUser } from '../helpers';
import { type Fixture, type Row, ADMIN, HOLDER, SELF, SELF_STAFF } from './support';
import { insertPolicy } from '../backupPolicyRow';

/**
 * Authorization matrix rows of backups (spec s.7 "Backups"): one per route, as
 * tests/api/matrix.test.ts checks. Policies are made switched off (a schedule needs the runs'
 * job), on the fixture's server; the runs' routes are in backups-runs.rows.ts.
 */
const CREATED = { ...SELF, owner: 201, admin: 201, acting: 201 };
/** Only an admin, naming the user, sets their credit (not the user, nor an admin acting). */
const ADMIN_NAMING = { ...SELF, owner: 403, acting: 403 };

const suffix = () => randomUUID().slice(0, 8);
const stamp = () => new Date().toISOString();

/** A database on a server (its row, as the agent confirmed it). */
async function databaseOn(t: TestApp, serverId: number): Promise<number> {
  const store = new ManagedStore(t.app.db, 'databases');
  const row = await store.insert(serverId, {
    name: `m_${suffix()}`,
    collation: 'utf8mb4_unicode_ci',
  });
  await store.settle(row, { status: 'active' });
  return row.id;
}

/** A switched-off policy of `userId` on `serverId`, of a fresh database. */
async function policyOn(t: TestApp, userId: number, serverId: number): Promise<number> {
  return insertPolicy(t.app.db, {
    user_id: userId,
    server_id: serverId,
    database_id: await databaseOn(t, serverId),
    subject: 'matrix',
    enabled: 0,
  });
}

async function fileOf(t: TestApp, policyId: number): Promise<number> {
  const row = await t.app.db
    .insertInto('backup_runs')
    .values({
      backup_id: policyId,
      status: 'ok',
      trigger: 'manual',
      snapshot_id: 'abcdef0123456789',
      created_at: stamp(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function targetOf(t: TestApp, userId: number): Promise<number> {
  const row = await t.app.db
    .insertInto('backup_targets')
    .values({
      user_id: userId,
      kind: 's3',
      name: `offsite ${suffix()}`,
      location: 's3:https://s3.matrix.test/bucket',
      hint: 'Access key ending ABCD',
      credentials: t.app.services.box.seal('{}'),
      created_at: stamp(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A server of the stranger's own (their policies hang under it). */
async function strangersServer(t: TestApp, user: TestUser): Promise<number> {
  return (await t.app.services.servers.create(user.id, { name: `s-${suffix()}` })).id;
}

/** Rows of each account resource of `user`'s, for the derived "another account's row" rows. */
export const owned = {
  backups: async (t: TestApp, user: TestUser) =>
    policyOn(t, user.id, await strangersServer(t, user)),
  'backup-files': async (t: TestApp, user: TestUser) =>
    fileOf(t, await policyOn(t, user.id, await strangersServer(t, user))),
  'backup-targets': (t: TestApp, user: TestUser) => targetOf(t, user.id),
};

const ownersPolicy = async (f: Fixture) => ({
  backupId: await policyOn(f.t, f.owner.id, f.serverId),
});

const s3Body = () => ({
  kind: 's3',
  name: `offsite ${suffix()}`,
  endpoint: 's3.matrix.test',
  bucket: 'matrix-bucket',
  access_key_id: 'AKIAMATRIX1234',
  secret_access_key: 'a secret of the matrix',
});

export const rows: Row[] = [
  { route: 'GET /api/v1/backup-recovery-key/users/:uid', expect: SELF },
  // The key opens every backup of the account: only its holder makes one, never an admin.
  {
    route: 'POST /api/v1/backup-recovery-key/users/:uid',
    expect: { ...HOLDER, owner: 201 },
  },
  { route: 'GET /api/v1/backups/users/:uid', query: () => '?type=database', expect: SELF },
  {
    route: 'POST /api/v1/backups/users/:uid',
    body: async (f) => ({
      type: 'database',
      server_id: f.serverId,
      database_id: await databaseOn(f.t, f.serverId),
      enabled: false,
    }),
    expect: CREATED,
  },
  { route: 'GET /api/v1/backups/:backupId/users/:uid', params: ownersPolicy, expect: SELF },
  {
    route: 'PATCH /api/v1/backups/:backupId/users/:uid',
    params: ownersPolicy,
    body: () => ({ keep_last: 3 }),
    expect: SELF,
  },
  {
    route: 'PATCH /api/v1/manage-backups/:backupId/users/:uid',
    params: ownersPolicy,
    body: () => ({ enabled: false }),
    expect: SELF,
  },
  // back up now, restore, remove files and backups, download: backups-runs.rows.ts.
  { route: 'GET /api/v1/backup-storage/users/:uid', expect: SELF },
  { route: 'PATCH /api/v1/backup-storage/users/:uid', body: s3Body, expect: SELF },
  { route: 'GET /api/v1/backup-credit/users/:uid', expect: SELF_STAFF },
  {
    route: 'POST /api/v1/backup-credit/users/:uid',
    query: () => '?credit=2',
    expect: ADMIN_NAMING,
  },
  { route: 'GET /api/v1/admin/backups', query: (f) => `?uid=${f.owner.id}`, expect: ADMIN },
  {
    route: 'PATCH /api/v1/admin/backup-credit',
    query: (f) => `?uid=${f.owner.id}&type=add`,
    body: () => ({ gb: 1, reason: 'matrix grant' }),
    expect: ADMIN,
  },
];
