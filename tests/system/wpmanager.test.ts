import { beforeAll, describe, expect, it } from 'vitest';
import { activity } from './harness/panel';
import { usePanelSandbox } from './harness/panelSandbox';
import { pinRelease, serveWordpress } from './harness/releaseArchives';

/**
 * The WordPress manager on a real WordPress the panel installed (Debian's 6.1.9, see the
 * harness): each change made through the API and seen as a visitor or the user would see it,
 * with `curl` through nginx and the files on the server.
 */
const sys = usePanelSandbox('wpmanager', ['nginx', 'php8.2-fpm', 'mariadb']);
let appId: number;
const PASSWORD = 'a long author password 7';
const at = (p: string) => `${p}/servers/${sys.server.id}/users/${sys.panel.uid}`;
const wp = (p: string, query = '') => `${at(`wp-manager/${p}`)}?wsid=${appId}${query}`;

async function settled(taskId: number): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const res = await sys.panel.api('GET', `clone-events/users/${sys.panel.uid}?id=${taskId}`);
    const task = (JSON.parse(res.body) as { data: { status: string }[] }).data[0]!;
    if (task.status !== 'running') return task.status;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the install did not end');
}

beforeAll(async () => {
  const user = await sys.panel.api('POST', at('sysusers'), {
    user_name: 'wpuser',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  const release = await serveWordpress(sys.sb, 18771);
  await pinRelease(sys.panel, 'wordpress', '6.1.9', { url: release.url, sha256: release.sha256 });
  const res = await sys.panel.api('POST', at('wordpress'), {
    name: 'blog',
    domains: ['blog.test'],
    sys_user: 'wpuser',
    title: 'Stackdeck Test Blog',
    admin_user: 'editor1',
    admin_email: 'editor@example.com',
  });
  expect(res.statusCode, res.body).toBe(202);
  const answer = JSON.parse(res.body) as { task_id: number; webapp_id: number };
  expect(await settled(answer.task_id)).toBe('completed');
  appId = answer.webapp_id;
}, 400_000);

async function curl(args: string[]) {
  return sys.sb.execOk([
    'curl',
    '-s',
    '--resolve',
    'blog.test:80:127.0.0.1',
    '-b',
    '/tmp/wpm.cookies',
    '-c',
    '/tmp/wpm.cookies',
    ...args,
  ]);
}

const json = <T>(res: { statusCode: number; body: string }, status = 200): T => {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body) as T;
};

interface Plugin {
  plugin: string;
  version: string;
  active: boolean;
}

describe('WordPress manager', () => {
  it('reads and changes the general settings: the title shows on the site', async () => {
    const general = json<Record<string, unknown>>(await sys.panel.api('GET', wp('general')));
    expect(general).toEqual({
      title: 'Stackdeck Test Blog',
      url: 'http://blog.test',
      admin_email: 'editor@example.com',
      public: true,
      debug: false,
      maintenance: false,
    });
    const changed = json<{ title: string }>(
      await sys.panel.api('PATCH', wp('general', '&type=title'), { value: 'Managed Blog' }),
    );
    expect(changed.title).toBe('Managed Blog');
    const home = await curl(['http://blog.test/']);
    expect(home.stdout).toContain('<title>Managed Blog</title>');
    // A value of the wrong kind for the setting is refused at the value.
    const bad = await sys.panel.api('PATCH', wp('general', '&type=public'), { value: 'yes' });
    expect(bad.statusCode).toBe(400);
  }, 120_000);

  it('turns maintenance mode on (503, WordPress page) and off again (200)', async () => {
    const on = json<{ maintenance: boolean }>(
      await sys.panel.api('PATCH', wp('general', '&type=maintenance'), { value: true }),
    );
    expect(on.maintenance).toBe(true);
    const down = await curl(['-w', '\n%{http_code}', 'http://blog.test/']);
    expect(down.stdout).toMatch(/503$/);
    expect(down.stdout).toContain('Briefly unavailable for scheduled maintenance');
    // The manager still reads the site while it is down.
    expect(
      json<{ maintenance: boolean }>(await sys.panel.api('GET', wp('general'))).maintenance,
    ).toBe(true);
    await sys.panel.api('PATCH', wp('general', '&type=maintenance'), { value: false });
    const up = await curl(['-o', '/dev/null', '-w', '%{http_code}', 'http://blog.test/']);
    expect(up.stdout).toBe('200');
  }, 120_000);

  it("switches WP_DEBUG in wp-config.php, as the site's user", async () => {
    const on = json<{ debug: boolean }>(
      await sys.panel.api('PATCH', wp('general', '&type=debug'), { value: true }),
    );
    expect(on.debug).toBe(true);
    const config = '/home/wpuser/apps/blog/public/wp-config.php';
    expect((await sys.sb.execOk(['cat', config])).stdout).toContain("define('WP_DEBUG', true);");
    expect(json<{ debug: boolean }>(await sys.panel.api('GET', wp('general'))).debug).toBe(true);
    await sys.panel.api('PATCH', wp('general', '&type=debug'), { value: false });
    expect((await sys.sb.execOk(['cat', config])).stdout).toContain("define('WP_DEBUG', false);");
    expect((await sys.sb.execOk(['stat', '-c', '%U %a', config])).stdout.trim()).toBe('wpuser 640');
  }, 120_000);

  it('creates a user who signs in, changes and deletes them; the last admin stays', async () => {
    const made = await sys.panel.api('POST', wp('users'), {
      login: 'author1',
      email: 'author1@example.com',
      role: 'author',
      password: PASSWORD,
    });
    const user = json<{ id: number; roles: string[] }>(made, 201);
    expect(user.roles).toEqual(['author']);
    expect(made.body).not.toContain(PASSWORD);

    await curl(['-o', '/dev/null', 'http://blog.test/wp-login.php']);
    const login = await curl([
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{redirect_url}',
      '--data-urlencode',
      'log=author1',
      '--data-urlencode',
      `pwd=${PASSWORD}`,
      '--data-urlencode',
      'testcookie=1',
      '--data-urlencode',
      'redirect_to=http://blog.test/wp-admin/',
      'http://blog.test/wp-login.php',
    ]);
    expect(login.stdout).toBe('302 http://blog.test/wp-admin/');

    const changed = json<{ roles: string[] }>(
      await sys.panel.api('PATCH', `${at(`wp-manager/users/${user.id}`)}?wsid=${appId}`, {
        role: 'editor',
        password: `${PASSWORD}x`,
      }),
    );
    expect(changed.roles).toEqual(['editor']);

    const list = json<{ users: { id: number; login: string }[]; roles: { name: string }[] }>(
      await sys.panel.api('GET', wp('users')),
    );
    expect(list.users.map((u) => u.login)).toEqual(['editor1', 'author1']);
    expect(list.roles.map((r) => r.name)).toContain('administrator');
    const admin = list.users.find((u) => u.login === 'editor1')!;
    const last = await sys.panel.api(
      'DELETE',
      `${at(`wp-manager/users/${admin.id}`)}?wsid=${appId}`,
    );
    expect(last.statusCode, last.body).toBe(409);

    const gone = await sys.panel.api(
      'DELETE',
      `${at(`wp-manager/users/${user.id}`)}?wsid=${appId}`,
    );
    expect(json(gone)).toEqual({ id: user.id, deleted: true });
    const after = json<{ users: { login: string }[] }>(await sys.panel.api('GET', wp('users')));
    expect(after.users.map((u) => u.login)).toEqual(['editor1']);

    const lines = (await activity(sys.panel, sys.server.id)).map((l) => l.message).join('\n');
    expect(lines).toContain('Add the user author1 as author');
    expect(lines).not.toContain(PASSWORD);
  }, 120_000);

  it('activates Akismet and deactivates it', async () => {
    const before = json<{ plugins: Plugin[] }>(await sys.panel.api('GET', wp('plugins')));
    expect(before.plugins.find((p) => p.plugin === 'akismet/akismet.php')?.active).toBe(false);
    const on = json<{ plugins: Plugin[] }>(
      await sys.panel.api('PATCH', wp('plugins', '&plugin=akismet/akismet.php&action=activate')),
    );
    expect(on.plugins.find((p) => p.plugin === 'akismet/akismet.php')?.active).toBe(true);
    const listed = json<{ plugins: Plugin[] }>(await sys.panel.api('GET', wp('plugins')));
    expect(listed.plugins.find((p) => p.plugin === 'akismet/akismet.php')?.active).toBe(true);
    // An active plugin is not deleted.
    const refused = await sys.panel.api('DELETE', wp('plugins', '&plugin=akismet/akismet.php'));
    expect(refused.statusCode).toBe(409);
    const off = json<{ plugins: Plugin[] }>(
      await sys.panel.api('PATCH', wp('plugins', '&plugin=akismet/akismet.php&action=deactivate')),
    );
    expect(off.plugins.find((p) => p.plugin === 'akismet/akismet.php')?.active).toBe(false);
  }, 120_000);

  it('installs a plugin from a zip, updates it from a newer one, deletes it', async () => {
    const zipOf = async (version: string) => {
      await sys.sb.execOk(['rm', '-rf', '/tmp/zp']);
      await sys.sb.execOk(['mkdir', '-p', '/tmp/zp/sd-hello']);
      const header = `<?php\n/*\nPlugin Name: SD Hello\nVersion: ${version}\n*/\n`;
      await sys.sb.execOk([
        'sh',
        '-c',
        `printf '%s' "$1" > /tmp/zp/sd-hello/sd-hello.php`,
        'sh',
        header,
      ]);
      await sys.sb.execOk(['sh', '-c', 'cd /tmp/zp && zip -qr sd.zip sd-hello']);
      return (await sys.sb.execOk(['base64', '-w0', '/tmp/zp/sd.zip'])).stdout.trim();
    };
    const upload = (zip: string) =>
      sys.panel.api('PATCH', at(`wp/webstacks/${appId}`), { file_name: 'sd-hello.zip', zip });
    const first = json<{ plugins: Plugin[] }>(await upload(await zipOf('1.0')));
    expect(first.plugins.find((p) => p.plugin === 'sd-hello/sd-hello.php')).toMatchObject({
      version: '1.0',
      active: false,
    });
    const second = json<{ plugins: Plugin[] }>(await upload(await zipOf('1.1')));
    expect(second.plugins.find((p) => p.plugin === 'sd-hello/sd-hello.php')?.version).toBe('1.1');
    // A zip of the folder without a plugin header is refused; the version there stays.
    const headless = await zipOf('1.2').then(async () => {
      await sys.sb.execOk([
        'sh',
        '-c',
        'cd /tmp/zp && echo "<?php" > sd-hello/sd-hello.php && rm sd.zip && zip -qr sd.zip sd-hello',
      ]);
      return (await sys.sb.execOk(['base64', '-w0', '/tmp/zp/sd.zip'])).stdout.trim();
    });
    const noHeader = await upload(headless);
    expect(noHeader.statusCode, noHeader.body).toBe(400);
    expect(noHeader.body).toContain('no plugin header');
    const kept = json<{ plugins: Plugin[] }>(await sys.panel.api('GET', wp('plugins')));
    expect(kept.plugins.find((p) => p.plugin === 'sd-hello/sd-hello.php')?.version).toBe('1.1');
    const owner = await sys.sb.execOk([
      'stat',
      '-c',
      '%U',
      '/home/wpuser/apps/blog/public/wp-content/plugins/sd-hello/sd-hello.php',
    ]);
    expect(owner.stdout.trim()).toBe('wpuser');
    // A zip with a link (to root's files) is refused before anything is unpacked.
    await sys.sb.execOk([
      'sh',
      '-c',
      'cd /tmp/zp && ln -s /etc/shadow sd-hello/link && zip -qry bad.zip sd-hello',
    ]);
    const bad = (await sys.sb.execOk(['base64', '-w0', '/tmp/zp/bad.zip'])).stdout.trim();
    const refused = await upload(bad);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toContain('A link in the archive');

    const deleted = json<{ plugins: Plugin[] }>(
      await sys.panel.api('DELETE', wp('plugins', '&plugin=sd-hello/sd-hello.php')),
    );
    expect(deleted.plugins.map((p) => p.plugin)).not.toContain('sd-hello/sd-hello.php');
    const there = await sys.sb.exec([
      'test',
      '-e',
      '/home/wpuser/apps/blog/public/wp-content/plugins/sd-hello',
    ]);
    expect(there.code).not.toBe(0);
  }, 120_000);
});
