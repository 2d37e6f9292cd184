import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pinRelease, serveWordpress } from './harness/releaseArchives';

/**
 * The WordPress one-click install on a real server: the release (Debian's WordPress, see the
 * harness) downloaded and verified by the agent, WordPress's own installer run as the app's
 * user, and the result checked as a visitor and as the admin would: `curl` through nginx.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let release: { url: string; sha256: string };
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'wordpress', ['nginx', 'php8.2-fpm', 'mariadb']));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'wpuser',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  release = await serveWordpress(sb, 18770);
  // First pinned with a hash the archive does not have: the refused install comes first.
  await pinRelease(panel, 'wordpress', '6.1.9', { url: release.url, sha256: '0'.repeat(64) });
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

interface Task {
  status: string;
  events: { event: string; code: number }[];
}

async function settled(taskId: number): Promise<Task> {
  for (let i = 0; i < 600; i++) {
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (JSON.parse(res.body) as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the install did not end');
}

const install = (name: string, domain: string) =>
  panel.api('POST', at('wordpress'), {
    name,
    domains: [domain],
    sys_user: 'wpuser',
    title: 'Stackdeck Test Blog',
    admin_user: 'editor1',
    admin_email: 'editor@example.com',
  });

/** `curl` inside the sandbox to nginx on its loopback, as a browser of `domain` would. */
async function curl(domain: string, args: string[]) {
  return sb.execOk([
    'curl',
    '-s',
    '--resolve',
    `${domain}:80:127.0.0.1`,
    '-b',
    '/tmp/wp.cookies',
    '-c',
    '/tmp/wp.cookies',
    ...args,
  ]);
}

describe('WordPress one-click install', () => {
  it('refuses a release whose SHA-256 differs, and leaves nothing behind', async () => {
    const res = await install('broken', 'broken.test');
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event).join('\n')).toMatch(
      /Downloading WordPress 6\.1\.9 failed: .*SHA-256/,
    );
    const apps = JSON.parse((await panel.api('GET', at('webstacks'))).body) as { data: unknown[] };
    expect(apps.data).toEqual([]);
    const dbs = await sb.execOk(['mariadb', '-N', '-e', 'SHOW DATABASES']);
    expect(dbs.stdout).not.toContain('wp_broken');
    const users = await sb.execOk(['mariadb', '-N', '-e', 'SELECT User FROM mysql.user']);
    expect(users.stdout).not.toContain('wp_broken');
    expect((await sb.exec(['test', '-e', '/home/wpuser/apps/broken'])).code).not.toBe(0);
    expect(
      (await sb.exec(['test', '-e', '/etc/nginx/sites-enabled/stackdeck-broken.conf'])).code,
    ).not.toBe(0);
  }, 180_000);

  it('installs WordPress: the site answers with its title and the admin signs in', async () => {
    await panel.t.app.db
      .updateTable('app_releases')
      .set({ sha256: release.sha256 })
      .where('app', '=', 'wordpress')
      .execute();
    const started = Date.now();
    const res = await install('blog', 'blog.test');
    expect(res.statusCode, res.body).toBe(202);
    const answer = JSON.parse(res.body) as {
      task_id: number;
      webapp_id: number;
      login: { url: string; user: string; password: string };
    };
    expect(answer.login).toMatchObject({ url: 'http://blog.test/wp-login.php', user: 'editor1' });
    expect(answer.login.password.length).toBeGreaterThanOrEqual(20);
    const task = await settled(answer.task_id);
    const seconds = (Date.now() - started) / 1000;
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events.at(-1)).toEqual({ event: 'WordPress is installed', code: 10 });
    const codes = task.events.map((e) => e.code);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    console.log(`WordPress install: ${seconds.toFixed(1)} s from the call to completed`);

    const home = await curl('blog.test', ['-w', '\n%{http_code}', 'http://blog.test/']);
    expect(home.stdout).toMatch(/200$/);
    expect(home.stdout).toContain('Stackdeck Test Blog');
    expect(home.stdout).toContain('content="WordPress 6.1.9"');

    // wp-login.php wants its test cookie first, as a browser gets it.
    await curl('blog.test', ['-o', '/dev/null', 'http://blog.test/wp-login.php']);
    const login = await curl('blog.test', [
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{redirect_url}',
      '--data-urlencode',
      `log=${answer.login.user}`,
      '--data-urlencode',
      `pwd=${answer.login.password}`,
      '--data-urlencode',
      'testcookie=1',
      '--data-urlencode',
      'redirect_to=http://blog.test/wp-admin/',
      'http://blog.test/wp-login.php',
    ]);
    expect(login.stdout).toBe('302 http://blog.test/wp-admin/');
    const admin = await curl('blog.test', ['http://blog.test/wp-admin/']);
    expect(admin.stdout).toContain('Dashboard');

    // The files are the app user's; the config is not for others to read.
    const owner = await sb.execOk([
      'stat',
      '-c',
      '%U %a',
      '/home/wpuser/apps/blog/public/wp-config.php',
    ]);
    expect(owner.stdout.trim()).toBe('wpuser 640');
    expect(
      (await sb.exec(['test', '-e', '/home/wpuser/apps/blog/.stackdeck-install.php'])).code,
    ).not.toBe(0);

    // Its database and user are the app's, in the panel's lists.
    const dbs = await panel.api('GET', at(`webstackdb/${answer.webapp_id}`));
    expect(dbs.body).toContain('"name":"wp_blog"');
    const dbUsers = await panel.api('GET', at(`webstackdbuser/${answer.webapp_id}`));
    expect(dbUsers.body).toContain('"name":"wp_blog"');
  }, 300_000);

  it('clones the site to its own domain: addresses rewritten, serialized options intact', async () => {
    const sql = (query: string, db = 'wp_blog') =>
      sb.execOk(['mariadb', '-N', '-B', db, '-e', query]).then((r) => r.stdout.trim());
    const options = await sql("SHOW TABLES LIKE '%options'");
    const value =
      'a:2:{s:3:"url";s:20:"http://blog.test/x/y";s:4:"list";a:1:{i:0;s:17:"https://blog.test";}}';
    await sql(
      `INSERT INTO ${options} (option_name, option_value, autoload) VALUES ('sd_check', '${value}', 'no')`,
    );
    const apps = JSON.parse((await panel.api('GET', at('webstacks'))).body) as {
      data: { id: number; name: string }[];
    };
    const blog = apps.data.find((a) => a.name === 'blog')!;
    const res = await panel.api('POST', at(`clone-webapp/webstacks/${blog.id}`), {
      name: 'blog-copy',
      domains: ['copy-of-blog.test'],
      sys_user: 'wpuser',
    });
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events.at(-1)).toEqual({ event: 'Clone completed', code: 10 });
    const codes = task.events.map((e) => e.code);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));

    const copy = await curl('copy-of-blog.test', ['http://copy-of-blog.test/']);
    expect(copy.stdout).toContain('Stackdeck Test Blog');
    expect(copy.stdout).toContain('http://copy-of-blog.test/');
    expect(copy.stdout).not.toContain('http://blog.test');
    const cloned = await sql(
      `SELECT option_value FROM ${options} WHERE option_name = 'sd_check'`,
      'cl_blog_copy',
    );
    expect(cloned).toBe(
      'a:2:{s:3:"url";s:28:"http://copy-of-blog.test/x/y";s:4:"list";a:1:{i:0;s:25:"https://copy-of-blog.test";}}',
    );
    expect(
      await sql(
        `SELECT option_value FROM ${options} WHERE option_name = 'siteurl'`,
        'cl_blog_copy',
      ),
    ).toBe('http://copy-of-blog.test');
    // The source is as it was.
    expect(await sql(`SELECT option_value FROM ${options} WHERE option_name = 'sd_check'`)).toBe(
      value,
    );
    const config = await sb.execOk(['cat', '/home/wpuser/apps/blog-copy/public/wp-config.php']);
    expect(config.stdout).toContain("define('DB_NAME', 'cl_blog_copy')");
  }, 300_000);
});
