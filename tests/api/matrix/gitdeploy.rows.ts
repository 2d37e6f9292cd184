import { now } from '../../../server/db/database';
import { ManagedStore } from '../../../server/managed/store';
import type { TestApp } from '../helpers';
import { OFFLINE, PUBLIC, SHARED, type Row } from './support';

/**
 * Git deployment: the fixture app gets a configuration (an https repository, so configuring
 * again asks no server), the calls that need the server answer 409 (it is offline), the rest
 * read and write the panel's rows. The webhook is public: a known token without a signature
 * is 401 for everyone. The derived rows name another tenant's app: 404.
 */
const TOKEN = 'matrixMatrixMatrixMatrixMatrix01';
type F = { t: TestApp; serverId: number; appId: number };

async function configure(f: F, appId: number, token: string) {
  const stamp = now();
  await f.t.app.db
    .insertInto('git_configs')
    .values({
      server_id: f.serverId,
      webapp_id: appId,
      repository: 'https://git.example/team/site.git',
      branch: 'main',
      script: '',
      health_path: '/',
      host_keys: '[]',
      host_fingerprints: '[]',
      webhook_enabled: 1,
      webhook_provider: 'github',
      webhook_token: token,
      webhook_secret: f.t.app.services.box.seal('matrix secret'),
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

let configured: Promise<void> | undefined;
const wsid = async (f: F) => {
  configured ??= configure(f, f.appId, TOKEN);
  await configured;
  return `?wsid=${f.appId}`;
};
/** The fixture app, configured (for the routes that name it in the path). */
const app = async (f: F) => ({ appId: Number((await wsid(f)).slice(6)) });

let made = 0;
/** A configured app of its own for each removal. */
async function doomed(f: F) {
  const n = ++made;
  const row = await new ManagedStore(f.t.app.db, 'webapps').insert(f.serverId, {
    name: `gitdoomed${n}`,
    webapp_type: 'custom',
    stack_type: 'nginx',
    php_version: null,
    domains: JSON.stringify([`gitdoomed${n}.example`]),
    web_root: 'public',
    php_settings: '{}',
    sys_user: 'alice',
    parent_id: null,
  });
  await configure(f, row.id, `matrixDoomedToken${String(n).padStart(15, '0')}`);
  return { appId: row.id };
}

const base = '/servers/:sid/users/:uid';
const ofApp = `/webstacks/:appId${base}`;

export const rows: Row[] = [
  { route: `GET /api/v1/gitdeploy${base}`, query: wsid, expect: SHARED },
  {
    route: `POST /api/v1/gitdeploy${base}`,
    query: wsid,
    body: () => ({ repository: 'https://git.example/team/site.git', branch: 'main' }),
    // Configured already: 409 for everyone who reaches the app.
    expect: OFFLINE,
  },
  {
    route: `PATCH /api/v1/gitdeploy${base}`,
    query: wsid,
    body: () => ({ branch: 'main' }),
    expect: SHARED,
  },
  { route: `DELETE /api/v1/gitdeploy${ofApp}`, params: doomed, expect: SHARED },
  { route: `GET /api/v1/gitbranch${ofApp}`, params: app, expect: OFFLINE },
  { route: `GET /api/v1/gitwebhook${ofApp}`, params: app, expect: SHARED },
  { route: `GET /api/v1/gitwebhook/secret${ofApp}`, params: app, expect: SHARED },
  { route: `GET /api/v1/gitdeploy/releases${ofApp}`, params: app, expect: OFFLINE },
  {
    route: `PATCH /api/v1/gitwebhook${ofApp}`,
    params: app,
    body: () => ({ provider: 'github' }),
    expect: SHARED,
  },
  { route: `POST /api/v1/gitdeploy/deploys${ofApp}`, params: app, expect: OFFLINE },
  { route: `GET /api/v1/gitdeploy/deploys${ofApp}`, params: app, expect: SHARED },
  { route: `POST /api/v1/gitdeploy/rollback${ofApp}`, params: app, expect: OFFLINE },
  {
    route: 'POST /api/v1/hooks/git/:token',
    params: async () => ({ token: TOKEN }),
    body: () => ({ ref: 'refs/heads/main' }),
    expect: PUBLIC(401),
  },
];
