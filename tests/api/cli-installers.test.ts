import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';
import { addRelease, appStepOps, ok } from './installerAgent';

/**
 * The Nextcloud, Joomla and Moodle installers' logic with a fake agent: each makes its app,
 * database and user, fetches its release and runs its installer op with generated secrets.
 * tests/system/cli-installers.test.ts runs them on a real server (with fixture releases).
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(
    live,
    owner,
    {
      ...appStepOps(),
      'nextcloud.install': ok({ data_dir: '/home/alice/apps/cloud/data' }),
      'joomla.install': ok({ installed: true }),
      'moodle.install': ok({ data_dir: '/home/alice/apps/school/moodledata' }),
      // Nextcloud's and Moodle's cron jobs (tests/api/app-cron.test.ts).
      'cron.set': ok({ set: true }),
    },
    'cli-1',
  );
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  for (const app of ['nextcloud', 'joomla', 'moodle']) await addRelease(live.t.app.db, app);
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

async function install(app: string, body: Record<string, unknown>) {
  const at = `/api/v1/${app}/servers/${agent.server.id}/users/${owner.id}`;
  const res = await live.t.call('POST', at, {
    token: owner.token,
    body: { sys_user: 'alice', admin_user: 'owner1', admin_email: 'o@example.com', ...body },
  });
  expect(res.statusCode, res.body).toBe(202);
  let status = 'running';
  for (let i = 0; i < 200 && status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const task = await live.t.call(
      'GET',
      `/api/v1/clone-events/users/${owner.id}?id=${res.json().task_id}`,
      { token: owner.token },
    );
    status = task.json().data[0].status;
  }
  expect(status).toBe('completed');
  return res.json() as { login: { url: string; user: string; password: string } };
}

const opArgs = (name: string) =>
  agent.calls.filter((c) => c.name === name).at(-1)!.args as Record<string, unknown>;

describe('the Nextcloud, Joomla and Moodle installers', () => {
  it('Nextcloud: its database, a generated admin password, the domain it trusts', async () => {
    const answer = await install('nextcloud', { name: 'cloud', domains: ['cloud.example.com'] });
    expect(answer.login).toMatchObject({ url: 'http://cloud.example.com/', user: 'owner1' });
    expect(opArgs('nextcloud.install')).toMatchObject({
      db_name: 'nc_cloud',
      domain: 'cloud.example.com',
      admin_password: answer.login.password,
    });
    expect(answer.login.password).toMatch(/^\S{20}$/);
  });

  it('Joomla: a random table prefix, the admin signs in at /administrator/', async () => {
    const answer = await install('joomla', {
      name: 'cms',
      domains: ['cms.example.com'],
      title: 'A site',
      admin_password: 'a long admin password',
    });
    expect(answer.login).toEqual({
      url: 'http://cms.example.com/administrator/',
      user: 'owner1',
      password: 'a long admin password',
    });
    expect(opArgs('joomla.install').db_prefix).toMatch(/^[a-z][a-z0-9]{3}_$/);
  });

  it('Moodle: its address and names as given', async () => {
    const answer = await install('moodle', {
      name: 'school',
      domains: ['school.example.com'],
      title: 'A school',
      short_name: 'school',
    });
    expect(answer.login.url).toBe('http://school.example.com/login/index.php');
    expect(opArgs('moodle.install')).toMatchObject({
      url: 'http://school.example.com',
      title: 'A school',
      short_name: 'school',
      db_name: 'md_school',
    });
  });
});

describe('an app without a usable source', () => {
  it('is refused with the words its install page shows (GET app-sources), and nothing is made', async () => {
    // Moodle's releases all unusable: the one pinned above loses its hash, the official source
    // was never checked.
    await live.t.app.db
      .updateTable('app_releases')
      .set({ sha256: '' })
      .where('app', '=', 'moodle')
      .execute();
    const sources = await live.t.call('GET', '/api/v1/app-sources', { token: owner.token });
    const notice = (sources.json().data as { app: string; usable: boolean; reason: string }[]).find(
      (s) => s.app === 'moodle',
    )!;
    expect(notice).toMatchObject({
      usable: false,
      reason: 'The release has no address or SHA-256',
    });
    const calls = agent.calls.length;
    const res = await live.t.call(
      'POST',
      `/api/v1/moodle/servers/${agent.server.id}/users/${owner.id}`,
      {
        token: owner.token,
        body: {
          sys_user: 'alice',
          admin_user: 'owner1',
          admin_email: 'o@example.com',
          name: 'school2',
          domains: ['school2.example.com'],
          title: 'Another school',
          short_name: 'school2',
        },
      },
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(notice.reason);
    expect(agent.calls.length).toBe(calls);
    const apps = await live.t.app.db
      .selectFrom('webapps')
      .select('name')
      .where('name', '=', 'school2')
      .execute();
    expect(apps).toEqual([]);
  });
});
