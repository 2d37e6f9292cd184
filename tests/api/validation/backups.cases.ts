import type { TestApp } from '../helpers';
import type { Case } from '../validation.test';
import { insertPolicy } from '../backupPolicyRow';

const anything = /./;

/** A switched-off policy of the user's on their server: `{backupId}` loads before the body. */
const policy = async ({ t, serverId, uid }: { t: TestApp; serverId: number; uid: number }) => {
  return {
    backupId: await insertPolicy(t.app.db, {
      user_id: uid,
      server_id: serverId,
      database_id: 1,
      subject: 'validation',
      enabled: 0,
    }),
  };
};

/** Bad input on the backup routes (spec s.7 "Backups"): every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/backups/users/:uid',
    as: 'user',
    query: '?type=files&sort=size',
    errors: { type: anything, sort: anything },
  },
  {
    route: 'POST /api/v1/backups/users/:uid',
    as: 'user',
    body: { type: 'database', server_id: 'web', at: '25:00', keep_last: 0 },
    errors: { server_id: anything, at: 'A time is HH:MM', keep_last: 'Keep at least the last run' },
  },
  {
    route: 'GET /api/v1/backups/:backupId/users/:uid',
    as: 'user',
    params: policy,
    query: '?page=0',
    errors: { page: anything },
  },
  {
    route: 'PATCH /api/v1/backups/:backupId/users/:uid',
    as: 'user',
    params: policy,
    body: { frequency: 'yearly', at: '7am' },
    errors: { frequency: anything, at: 'A time is HH:MM' },
  },
  {
    route: 'PATCH /api/v1/manage-backups/:backupId/users/:uid',
    as: 'user',
    params: policy,
    body: {},
    errors: { enabled: anything },
  },
  {
    route: 'PATCH /api/v1/keep-restores/:backupId/users/:uid',
    as: 'user',
    params: policy,
    body: { restore_id: 'all' },
    errors: { restore_id: anything },
  },
  {
    route: 'PATCH /api/v1/backup-now/users/:uid',
    as: 'user',
    query: '?bid=nightly',
    errors: { bid: anything },
  },
  {
    route: 'PATCH /api/v1/restore-backups/users/:uid',
    as: 'user',
    body: { file_id: 'latest', mode: 'everything', path: '../../etc' },
    errors: { file_id: anything, mode: anything, path: 'A path inside the app, without ..' },
  },
  {
    route: 'DELETE /api/v1/remove-backups/users/:uid',
    as: 'user',
    query: '?sid=all',
    errors: { sid: anything, file_id: anything },
  },
  {
    route: 'PATCH /api/v1/backup-storage/users/:uid',
    as: 'user',
    body: {
      kind: 's3',
      name: '',
      endpoint: 'bad host!',
      bucket: 'UPPER',
      access_key_id: 'AKIA1234',
      secret_access_key: 'a secret',
      // It becomes a file restic reads: certificates only, nothing else.
      ca_pem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
    },
    errors: {
      name: 'Name the storage',
      endpoint: anything,
      bucket: anything,
      ca_pem: 'PEM certificates (-----BEGIN CERTIFICATE----- ...)',
    },
  },
  {
    // SFTP: the host keys are what ssh-keyscan prints; a paste with none of them is refused.
    route: 'PATCH /api/v1/backup-storage/users/:uid',
    as: 'user',
    body: {
      kind: 'sftp',
      name: 'nas',
      host: 'nas.example:2222',
      user: 'Not A User',
      path: 'relative/path',
      known_host:
        '# nas.example:2222 SSH-2.0-OpenSSH_9.2p1\nnas.example ssh-dss AAAAB3NzaC1kc3MAAACBAP',
    },
    errors: {
      user: 'A user name',
      path: 'An absolute path',
      known_host:
        'No host key found: paste what `ssh-keyscan -p PORT host` prints (ed25519, ECDSA or RSA keys)',
    },
  },
  {
    route: 'POST /api/v1/backup-credit/users/:uid',
    as: 'user',
    query: '?credit=lots',
    errors: { credit: anything },
  },
  {
    route: 'GET /api/v1/admin/backups',
    as: 'admin',
    query: '?uid=someone&type=files',
    errors: { uid: anything, type: anything },
  },
  {
    route: 'PATCH /api/v1/admin/backup-credit',
    as: 'admin',
    query: '?uid=someone&type=give',
    body: { gb: 1, reason: 'a good reason' },
    errors: { uid: anything, type: anything },
  },
  {
    route: 'PATCH /api/v1/admin/backup-credit',
    as: 'admin',
    query: '?uid=1&type=add',
    body: { gb: 0, reason: '' },
    errors: { gb: anything, reason: 'Say why, for the ledger' },
  },
];
