import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pinRelease, serveFixture } from './harness/releaseArchives';

/**
 * Nextcloud, Joomla and Moodle have no Debian package and this machine no internet: their
 * releases here are FIXTURES (tests/system/harness/releaseArchives.ts) in each project's archive
 * format and layout, whose install CLI records its arguments. So this proves, on a real server,
 * the download and its checksum, the unpacking as the app's user, the database and user, the
 * site served by nginx, and the exact command line each real installer gets — never that the
 * real Nextcloud, Joomla or Moodle installed (README, "What the tests cannot prove here").
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'cliapps', [
    'nginx',
    'php8.2-fpm',
    'mariadb',
    'cron',
  ]));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'apps',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  // A job of the user's own, which no app's install or delete may touch.
  const own = await panel.api('POST', at('cronjobs'), {
    label: 'mine',
    sys_user: 'apps',
    schedule: '0 1 * * *',
    command: '/bin/true',
  });
  expect(own.statusCode, own.body).toBe(201);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

interface Task {
  status: string;
  events: { event: string; code: number }[];
  /** The app the install made (gone again after a failed one). */
  webappId: number;
}
async function settled(taskId: number): Promise<Omit<Task, 'webappId'>> {
  for (let i = 0; i < 600; i++) {
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (JSON.parse(res.body) as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the install did not end');
}

async function install(app: string, body: Record<string, unknown>) {
  const res = await panel.api('POST', at(app), {
    sys_user: 'apps',
    admin_user: 'owner1',
    admin_email: 'owner@example.com',
    admin_password: 'a long admin password',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(202);
  const answer = JSON.parse(res.body) as { task_id: number; webapp_id: number };
  return { ...(await settled(answer.task_id)), webappId: answer.webapp_id };
}

const crontab = async () => (await sb.execOk(['crontab', '-l', '-u', 'apps'])).stdout;

/** Deletes the app (and its database), as its page does; its cron line must go with it. */
async function deleteApp(id: number) {
  const res = await panel.api('DELETE', `${at(`webstacks/${id}`)}?databases=true`);
  expect(res.statusCode, res.body).toBe(200);
}

/** The fixture's record of each call of its CLI, and the site's answer through nginx. */
async function outcome(name: string, domain: string) {
  const calls = (await sb.execOk(['cat', `/home/apps/apps/${name}/fixture-calls.log`])).stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as string[]);
  const site = await sb.execOk([
    'curl',
    '-s',
    '--resolve',
    `${domain}:80:127.0.0.1`,
    `http://${domain}/`,
  ]);
  const owner = await sb.execOk(['stat', '-c', '%U', `/home/apps/apps/${name}/public/index.php`]);
  return { calls, site: site.stdout, owner: owner.stdout.trim() };
}

const DB_PASS = expect.stringMatching(/^--(database-pass|db-pass|dbpass)=\S{32}$/);

describe('Nextcloud, Joomla and Moodle installers (fixture releases)', () => {
  it('refuses a Nextcloud archive with a byte changed, leaving nothing', async () => {
    await pinRelease(
      panel,
      'nextcloud',
      '30.0.0',
      await serveFixture(sb, 'nextcloud', 18774, true),
    );
    const task = await install('nextcloud', { name: 'cloud', domains: ['cloud.test'] });
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event).join('\n')).toMatch(
      /Downloading Nextcloud .* failed: .*SHA-256/,
    );
    expect((await sb.exec(['test', '-e', '/home/apps/apps/cloud'])).code).not.toBe(0);
    await panel.t.app.db.deleteFrom('app_releases').where('app', '=', 'nextcloud').execute();
  }, 120_000);

  it('Nextcloud: occ maintenance:install as documented, the data folder outside the web root', async () => {
    await pinRelease(panel, 'nextcloud', '30.0.0', await serveFixture(sb, 'nextcloud', 18774));
    const task = await install('nextcloud', { name: 'cloud', domains: ['cloud.test'] });
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    const { calls, site, owner } = await outcome('cloud', 'cloud.test');
    expect(site).toBe('Nextcloud fixture: installed');
    expect(owner).toBe('apps');
    expect(calls[0]).toEqual([
      'maintenance:install',
      '--database=mysql',
      '--database-name=nc_cloud',
      '--database-host=localhost',
      '--database-user=nc_cloud',
      DB_PASS,
      '--admin-user=owner1',
      '--admin-pass=a long admin password',
      '--admin-email=owner@example.com',
      '--data-dir=/home/apps/apps/cloud/data',
    ]);
    expect(calls[1]).toEqual(['config:system:set', 'trusted_domains', '1', '--value=cloud.test']);
    expect(calls[2]).toEqual(['background:cron']);
    expect(
      (await sb.execOk(['stat', '-c', '%U %a', '/home/apps/apps/cloud/data'])).stdout.trim(),
    ).toBe('apps 750');
    expect((await sb.execOk(['mariadb', '-N', '-e', 'SHOW DATABASES'])).stdout).toContain(
      'nc_cloud',
    );
    // Its background job, as Nextcloud documents it, next to the user's own line.
    const ncLine = '*/5 * * * * /usr/bin/php8.2 -f /home/apps/apps/cloud/public/cron.php';
    expect(await crontab()).toContain(ncLine);
    expect(await crontab()).toContain('0 1 * * * /bin/true');
    await deleteApp(task.webappId);
    const after = await crontab();
    expect(after).not.toContain('cron.php');
    expect(after).toContain('0 1 * * * /bin/true');
  }, 180_000);

  it('Joomla: installation/joomla.php install as documented, then no installation folder', async () => {
    await pinRelease(panel, 'joomla', '5.2.0', await serveFixture(sb, 'joomla', 18774));
    const task = await install('joomla', {
      name: 'cms',
      domains: ['cms.test'],
      title: 'Our Joomla',
    });
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    const { calls, site } = await outcome('cms', 'cms.test');
    expect(site).toBe('Joomla fixture: installed');
    expect(calls[0]).toEqual([
      'install',
      '--site-name=Our Joomla',
      '--admin-user=owner1',
      '--admin-username=owner1',
      '--admin-password=a long admin password',
      '--admin-email=owner@example.com',
      '--db-type=mysqli',
      '--db-host=localhost',
      '--db-user=jm_cms',
      DB_PASS,
      '--db-name=jm_cms',
      expect.stringMatching(/^--db-prefix=[a-z][a-z0-9]{3}_$/),
      '--db-encryption=0',
    ]);
    expect(
      (await sb.exec(['test', '-e', '/home/apps/apps/cms/public/installation'])).code,
    ).not.toBe(0);
  }, 180_000);

  it('Moodle: admin/cli/install.php as documented, its data folder outside the web root', async () => {
    await pinRelease(panel, 'moodle', '4.5.0', await serveFixture(sb, 'moodle', 18774));
    const task = await install('moodle', {
      name: 'school',
      domains: ['school.test'],
      title: 'Our School',
      short_name: 'school',
    });
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    const { calls, site } = await outcome('school', 'school.test');
    expect(site).toBe('Moodle fixture: installed');
    expect(calls[0]).toEqual([
      '--non-interactive',
      '--agree-license',
      '--lang=en',
      '--wwwroot=http://school.test',
      '--dataroot=/home/apps/apps/school/moodledata',
      '--dbtype=mariadb',
      '--dbhost=localhost',
      '--dbname=md_school',
      '--dbuser=md_school',
      DB_PASS,
      '--fullname=Our School',
      '--shortname=school',
      '--adminuser=owner1',
      '--adminpass=a long admin password',
      '--adminemail=owner@example.com',
      '--chmod=2750',
    ]);
    const mdLine =
      '* * * * * /usr/bin/php8.2 /home/apps/apps/school/public/admin/cli/cron.php >/dev/null';
    expect(await crontab()).toContain(mdLine);
    await deleteApp(task.webappId);
    expect(await crontab()).not.toContain('admin/cli/cron.php');
    expect(await crontab()).toContain('0 1 * * * /bin/true');
  }, 180_000);
});
