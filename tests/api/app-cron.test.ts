import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';
import { addRelease, appStepOps, ok, settledTask } from './installerAgent';

/**
 * The cron lines of one-click apps (issue 11) with a fake agent whose crontabs live in memory:
 * Nextcloud and Moodle installs add their job through the cron feature (listed with the app's
 * name), the app's delete takes it out, and a job of the user's own, same user, stays.
 * tests/system/cli-installers.test.ts reads the real crontab in a sandbox.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
/** The fake server's crontabs: user -> job id -> its line. */
const tabs = new Map<string, Map<number, string>>();
const tabOf = (user: string) => tabs.get(user) ?? tabs.set(user, new Map()).get(user)!;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(
    live,
    owner,
    {
      ...appStepOps(),
      'nextcloud.install': ok({ data_dir: '/home/alice/apps/cloud/data' }),
      'moodle.install': ok({ data_dir: '/home/alice/apps/school/moodledata' }),
      'clone.files': ok({ bytes: 10, files: 2, left_out: 0 }),
      'clone.database': ok({ tables: 1, rows_changed: 1, values_skipped: 0, refused: [] }),
      'cron.set': (a: { sys_user: string; id: number; schedule: string; command: string }) => {
        tabOf(a.sys_user).set(a.id, `${a.schedule} ${a.command}`);
        return { set: true };
      },
      'cron.remove': (a: { sys_user: string; id: number }) => ({
        removed: tabOf(a.sys_user).delete(a.id),
      }),
    },
    'appcron-1',
  );
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  await addSysuser(live.t.app.db, agent.server.id, 'bob');
  for (const app of ['nextcloud', 'moodle']) await addRelease(live.t.app.db, app);
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

/** Installs the app and waits for its task; its status and the new app's id. */
async function install(app: string, body: Record<string, unknown>) {
  const res = await call('POST', at(app), {
    sys_user: 'alice',
    admin_user: 'owner1',
    admin_email: 'o@example.com',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(202);
  const { status } = await settledTask(live, owner, res.json().task_id);
  return { status, webappId: res.json().webapp_id as number };
}

interface Job {
  id: number;
  label: string;
  command: string;
  schedule: string;
  webapp_id: number | null;
  webapp_name: string | null;
  status: string;
}
const jobs = async () => (await call('GET', at('cronjobs'))).json().data as Job[];

describe('cron lines of one-click apps', () => {
  let own: Job;

  it("a job of the user's own comes first", async () => {
    const res = await call('POST', at('cronjobs'), {
      label: 'mine',
      sys_user: 'alice',
      schedule: '0 1 * * *',
      command: '/bin/true',
    });
    expect(res.statusCode, res.body).toBe(201);
    own = res.json() as Job;
    expect(own.webapp_id).toBeNull();
  });

  it("Nextcloud's install adds its background job, every 5 minutes, with the app's PHP", async () => {
    const { status, webappId } = await install('nextcloud', {
      name: 'cloud',
      domains: ['cloud.example.com'],
      php_version: '8.3',
    });
    expect(status).toBe('completed');
    const job = (await jobs()).find((j) => j.webapp_id === webappId);
    expect(job).toMatchObject({
      schedule: '*/5 * * * *',
      command: '/usr/bin/php8.3 -f /home/alice/apps/cloud/public/cron.php',
      webapp_name: 'cloud',
      status: 'active',
    });
    expect(tabOf('alice').get(job!.id)).toBe(
      '*/5 * * * * /usr/bin/php8.3 -f /home/alice/apps/cloud/public/cron.php',
    );
  });

  it("deleting the app takes its job out, and the user's own stays", async () => {
    const app = (await jobs()).find((j) => j.webapp_name === 'cloud')!;
    const res = await call('DELETE', `${at(`webstacks/${app.webapp_id}`)}?databases=true`);
    expect(res.statusCode, res.body).toBe(200);
    expect(tabOf('alice').has(app.id)).toBe(false);
    expect(tabOf('alice').get(own.id)).toBe('0 1 * * * /bin/true');
    expect((await jobs()).map((j) => j.id)).toEqual([own.id]);
    const removed = agent.calls.filter((c) => c.name === 'cron.remove').map((c) => c.args);
    expect(removed).toEqual([{ sys_user: 'alice', id: app.id }]);
  });

  it("Moodle's install adds admin/cli/cron.php every minute", async () => {
    const { status, webappId } = await install('moodle', {
      name: 'school',
      domains: ['school.example.com'],
      title: 'A school',
      short_name: 'school',
    });
    expect(status).toBe('completed');
    expect((await jobs()).find((j) => j.webapp_id === webappId)).toMatchObject({
      label: 'Moodle cron',
      schedule: '* * * * *',
      command: '/usr/bin/php8.2 /home/alice/apps/school/public/admin/cli/cron.php >/dev/null',
    });
    await call('DELETE', `${at(`webstacks/${webappId}`)}?databases=true`);
    expect((await jobs()).map((j) => j.id)).toEqual([own.id]);
  });

  it('a crontab the server refuses fails the install and leaves no job and no app', async () => {
    const real = agent.ops['cron.set']!;
    agent.ops['cron.set'] = () => {
      throw new OpError('check_failed', 'crontab refused the jobs: bad minute');
    };
    try {
      const { status, webappId } = await install('nextcloud', {
        name: 'cloud2',
        domains: ['cloud2.example.com'],
      });
      expect(status).toBe('failed');
      expect((await jobs()).map((j) => j.id)).toEqual([own.id]);
      const apps = await live.t.app.db.selectFrom('webapps').select('id').execute();
      expect(apps.map((a) => a.id)).not.toContain(webappId);
    } finally {
      agent.ops['cron.set'] = real;
    }
    expect(tabOf('alice').size).toBe(1);
  });

  it("a clone gets the source's jobs, pointed at its own folder and run as its own user", async () => {
    const { status, webappId } = await install('moodle', {
      name: 'school2',
      domains: ['school2.example.com'],
      title: 'A school',
      short_name: 'school2',
    });
    expect(status).toBe('completed');
    const res = await call('POST', at(`clone-webapp/webstacks/${webappId}`), {
      name: 'school3',
      domains: ['school3.example.com'],
      sys_user: 'bob',
    });
    expect(res.statusCode, res.body).toBe(202);
    const task = await settledTask(live, owner, res.json().task_id);
    expect(task.status).toBe('completed');
    const copy = (await jobs()).find((j) => j.webapp_id === res.json().webapp_id);
    expect(copy).toMatchObject({
      label: 'Moodle cron',
      command: '/usr/bin/php8.2 /home/bob/apps/school3/public/admin/cli/cron.php >/dev/null',
      webapp_name: 'school3',
    });
    expect(tabOf('bob').get(copy!.id)).toBe(
      '* * * * * /usr/bin/php8.2 /home/bob/apps/school3/public/admin/cli/cron.php >/dev/null',
    );
  });
});
