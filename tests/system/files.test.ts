import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * The file manager on a real server: the panel's API drives the real agent in a sandbox, which
 * acts as the app's user (the kernel judges every step); `stat`, `curl` through nginx and the
 * archive tools inside the sandbox check the result.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let shop: number;

const APP = '/home/alice/apps/shop';
const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const fsUrl = (query: Record<string, string | number>) =>
  `${path('fs')}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const owner = async (file: string) =>
  (await sb.execOk(['stat', '-c', '%U:%G', file])).stdout.trim();
const asAlice = (argv: string[]) => sb.execOk(['runuser', '-u', 'alice', '--', ...argv]);
const act = (action: string, body: object) =>
  panel.api('POST', `${path('fs/process')}?wsid=${shop}&action=${action}`, body);

async function curl(url: string) {
  const res = await sb.exec(['curl', '-s', '-H', 'Host: shop.test', `http://127.0.0.1${url}`]);
  return res.stdout;
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'files', ['nginx', 'php8.2-fpm']));
  const user = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  const app = await panel.api('POST', path('webstacks'), {
    name: 'shop',
    domains: ['shop.test'],
    sys_user: 'alice',
  });
  expect(app.statusCode, app.body).toBe(201);
  shop = app.json().id as number;
}, 240_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('file manager on a sandbox server', () => {
  it("creates files and folders that belong to the app's user", async () => {
    const dir = await panel.api('POST', `${path('fs')}?wsid=${shop}`, {
      dir_path: '/public',
      name: 'lib',
      is_dir: true,
    });
    expect(dir.statusCode, dir.body).toBe(201);
    const file = await panel.api('POST', `${path('fs')}?wsid=${shop}`, {
      dir_path: '/public',
      name: 'hello.php',
      file_content: b64('<?php echo "first";'),
    });
    expect(file.statusCode, file.body).toBe(201);
    expect(await owner(`${APP}/public/lib`)).toBe('alice:alice');
    expect(await owner(`${APP}/public/hello.php`)).toBe('alice:alice');
  });

  it('saves an edited PHP file that nginx then serves, and refuses a stale save', async () => {
    expect(await curl('/hello.php')).toBe('first');
    const open = await panel.api(
      'GET',
      fsUrl({ wsid: shop, path: '/public/hello.php', is_dir: 'false' }),
    );
    expect(open.statusCode, open.body).toBe(200);
    const { etag } = open.json() as { etag: string };
    const save = (content: string) =>
      panel.api('POST', `${path('fs')}?wsid=${shop}`, {
        dir_path: '/public',
        name: 'hello.php',
        file_content: b64(content),
        etag,
      });
    expect((await save('<?php echo "edited";')).statusCode).toBe(201);
    expect(await curl('/hello.php')).toBe('edited');
    expect(await owner(`${APP}/public/hello.php`)).toBe('alice:alice');
    expect((await save('<?php echo "lost";')).statusCode).toBe(409);
    expect(await curl('/hello.php')).toBe('edited');
  });

  it('does not follow a link to /etc/shadow, and refuses .. escapes', async () => {
    await asAlice(['ln', '-s', '/etc/shadow', `${APP}/public/shadow`]);
    await asAlice(['ln', '-s', '/etc', `${APP}/public/etc`]);
    const read = await panel.api(
      'GET',
      fsUrl({ wsid: shop, path: '/public/shadow', is_dir: 'false' }),
    );
    expect(read.statusCode).not.toBe(200);
    expect(read.body).not.toMatch(/root:/);
    const list = await panel.api('GET', fsUrl({ wsid: shop, path: '/public/etc' }));
    expect(list.statusCode).toBe(400);
    const through = await panel.api(
      'GET',
      fsUrl({ wsid: shop, path: '/public/etc/shadow', is_dir: 'false' }),
    );
    expect(through.statusCode).toBe(400);
    const listed = await panel.api('GET', fsUrl({ wsid: shop, path: '/public' }));
    const link = (listed.json() as { data: { name: string; type: string }[] }).data.find(
      (e) => e.name === 'shadow',
    );
    expect(link).toMatchObject({ type: 'link' });
    const climb = await panel.api('GET', fsUrl({ wsid: shop, path: '/../../../etc' }));
    expect(climb.statusCode).toBe(400);
    const chmod = await act('permissions', { paths: ['/public/shadow'], mode: '777' });
    expect(chmod.statusCode).toBe(400);
    expect((await sb.execOk(['stat', '-c', '%a', '/etc/shadow'])).stdout.trim()).toBe('640');
  });

  it('refuses chmod 4755, and changes permissions as the user', async () => {
    const setuid = await act('permissions', { paths: ['/public/hello.php'], mode: '4755' });
    expect(setuid.statusCode).toBe(400);
    const ok = await act('permissions', { paths: ['/public/hello.php'], mode: '640' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await sb.execOk(['stat', '-c', '%a', `${APP}/public/hello.php`])).stdout.trim()).toBe(
      '640',
    );
  });

  it('compresses and extracts as the user, and refuses dangerous archives', async () => {
    const zip = await act('compress', {
      paths: ['/public/lib', '/public/hello.php'],
      name: 'site.zip',
    });
    expect(zip.statusCode, zip.body).toBe(200);
    const out = await act('extract', { paths: ['/public/site.zip'] });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ done: ['/public/site'] });
    expect(await owner(`${APP}/public/site/hello.php`)).toBe('alice:alice');
    const tgz = await act('compress', {
      paths: ['/public/hello.php'],
      name: 'one.tar.gz',
      format: 'tar.gz',
    });
    expect(tgz.statusCode, tgz.body).toBe(200);
    expect((await act('extract', { paths: ['/public/one.tar.gz'] })).statusCode).toBe(200);

    // Made by hand, as an attacker would: a ../ path, a link, too many files.
    await sb.execOk(['mkdir', '-p', '/tmp/evil/a/b']);
    await sb.execOk([
      'sh',
      '-c',
      'echo x > /tmp/evil/x && cd /tmp/evil/a/b && zip -q ../../../evil1.zip ../../x',
    ]);
    await sb.execOk([
      'sh',
      '-c',
      'cd /tmp/evil && ln -sf /etc/shadow s && zip -q -y /tmp/evil2.zip s',
    ]);
    await sb.execOk([
      'sh',
      '-c',
      'mkdir -p /tmp/many && cd /tmp/many && seq 1 10001 | xargs touch && zip -q -r /tmp/evil3.zip .',
    ]);
    for (const [name, why] of [
      ['evil1.zip', /\.\. path/],
      ['evil2.zip', /link/],
      ['evil3.zip', /more than 10000/],
    ] as const) {
      await sb.execOk([
        'install',
        '-o',
        'alice',
        '-g',
        'alice',
        `/tmp/${name}`,
        `${APP}/public/${name}`,
      ]);
      const res = await act('extract', { paths: [`/public/${name}`] });
      expect(res.statusCode, name).toBe(400);
      expect(res.body).toMatch(why);
    }
    expect((await sb.exec(['test', '-e', `${APP}/x`])).code).not.toBe(0);
  });

  it("keeps a deleted file in the user's trash", async () => {
    const res = await panel.api('DELETE', fsUrl({ wsid: shop, path: '/public/site/hello.php' }));
    expect(res.statusCode, res.body).toBe(200);
    const { trash } = res.json() as { trash: string };
    expect(trash).toMatch(/^\/home\/alice\/\.trash\/.+\/shop\/public\/site\/hello\.php$/);
    expect(await owner(trash)).toBe('alice:alice');
    expect((await sb.exec(['test', '-e', `${APP}/public/site/hello.php`])).code).not.toBe(0);
  });

  it('lists the first page of a 100,000-file folder', async () => {
    await asAlice(['mkdir', `${APP}/big`]);
    await sb.execOk(
      [
        'runuser',
        '-u',
        'alice',
        '--',
        'sh',
        '-c',
        `cd ${APP}/big && seq -w 1 100000 | xargs touch`,
      ],
      { timeoutMs: 300_000 },
    );
    const started = Date.now();
    const res = await panel.api('GET', fsUrl({ wsid: shop, path: '/big', per_page: 100 }));
    const ms = Date.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { total: number; data: { name: string }[] };
    expect(body.total).toBe(100_000);
    expect(body.data).toHaveLength(100);
    expect(body.data[0]!.name).toBe('000001');
    console.log(`first page of a 100,000-file folder: ${ms} ms`);
  }, 400_000);
});
