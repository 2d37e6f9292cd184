import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pageOf } from './harness/curl';

/**
 * Web apps on a real server: the panel's API drives the real agent in a sandbox with nginx,
 * PHP-FPM and Apache, and `curl` inside the sandbox is the client. Each app runs as its own
 * system user; the pages print what PHP sees.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const one = (p: string, id: number) => `${p}/${id}/servers/${server.id}/users/${panel.uid}`;

/** `curl` through nginx on the sandbox's loopback, by the app's name: status and body. */
const get = (domain: string, url = '/') => pageOf(sb, domain, url);

/** Writes a file into an app as its user (what an upload would do). */
async function put(user: string, file: string, content: string) {
  await sb.execOk(['runuser', '-u', user, '--', 'tee', file], { input: content });
}

async function create(body: Record<string, unknown>) {
  const res = await panel.api('POST', path('webstacks'), body);
  expect(res.statusCode, res.body).toBe(201);
  const app = res.json() as { id: number; status: string; error: string | null };
  expect(app, JSON.stringify(app)).toMatchObject({ status: 'active' });
  return app;
}

const WHO =
  '<?php echo posix_getpwuid(posix_geteuid())["name"], " ", ini_get("memory_limit"), "\\n";';

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'webapps', ['nginx', 'php8.2-fpm']));
  for (const user_name of ['alice', 'bob']) {
    const res = await panel.api('POST', path('sysusers'), {
      user_name,
      password: 'a long system password 1',
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('web apps on a sandbox server', () => {
  let shop: { id: number };
  let wiki: { id: number };

  it('serves a PHP app through nginx, run by its own user, and a second one beside it', async () => {
    shop = await create({
      name: 'shop',
      domains: ['shop.test', 'www.shop.test'],
      sys_user: 'alice',
    });
    const first = await get('shop.test');
    expect(first.status).toBe(200);
    expect(first.body).toMatch(/shop\.test runs PHP 8\.2/);
    await put('alice', '/home/alice/apps/shop/public/who.php', WHO);
    expect((await get('www.shop.test', '/who.php')).body).toBe('alice 256M');
    // Dotfiles are never served.
    await put('alice', '/home/alice/apps/shop/public/.env', 'SECRET=1');
    expect((await get('shop.test', '/.env')).status).toBe(403);

    await create({ name: 'blog', domains: ['blog.test'], sys_user: 'bob' });
    await put('bob', '/home/bob/apps/blog/public/who.php', WHO);
    expect((await get('blog.test', '/who.php')).body).toBe('bob 256M');
  });

  it("keeps one app out of another's files, in PHP and as its user", async () => {
    await put('bob', '/home/bob/apps/blog/secret.txt', 'bob only');
    await put(
      'alice',
      '/home/alice/apps/shop/public/peek.php',
      '<?php var_dump(@file_get_contents("/home/bob/apps/blog/secret.txt"));',
    );
    expect((await get('shop.test', '/peek.php')).body).toBe('bool(false)');
    // Not only open_basedir: alice's account cannot read it either.
    const asAlice = await sb.exec([
      'runuser',
      '-u',
      'alice',
      '--',
      'cat',
      '/home/bob/apps/blog/secret.txt',
    ]);
    expect(asAlice.code).not.toBe(0);
    expect(asAlice.stderr).toMatch(/Permission denied/);
    // And bob's PHP socket is not alice's to talk to.
    const socket = await sb.execOk([
      'stat',
      '-c',
      '%U:%G %a',
      '/run/php/php8.2-fpm-stackdeck-blog.sock',
    ]);
    expect(socket.stdout.trim()).toBe('bob:www-data 660');
    // nginx reads every app's files (it is in each app's group), so a link alice plants to
    // bob's file is not served: only links to the owner's own files are followed.
    await sb.execOk([
      'runuser',
      '-u',
      'alice',
      '--',
      'ln',
      '-s',
      '/home/bob/apps/blog/secret.txt',
      '/home/alice/apps/shop/public/steal.txt',
    ]);
    const stolen = await get('shop.test', '/steal.txt');
    expect(stolen.body).not.toMatch(/bob only/);
    // (nginx treats it as missing: the app's index.php answers instead)
    expect(stolen.body).toMatch(/shop\.test runs PHP/);
    await sb.execOk([
      'runuser',
      '-u',
      'alice',
      '--',
      'ln',
      '-s',
      'who.php',
      '/home/alice/apps/shop/public/own.php',
    ]);
    expect((await get('shop.test', '/own.php')).body).toBe('alice 256M');
  });

  it('applies a PHP setting change in the running app', async () => {
    const res = await panel.api('PATCH', one('webstacks', shop.id), {
      php_settings: { memory_limit: '384M' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get('shop.test', '/who.php')).body).toBe('alice 384M');
  });

  it('caches PHP pages with nginx: a second request is a HIT, a purge makes it a MISS', async () => {
    const cacheStatus = async (url: string, cookie?: string) => {
      const res = await sb.exec([
        'curl',
        '-s',
        '-o',
        '/dev/null',
        '-D',
        '-',
        '-H',
        'Host: shop.test',
        ...(cookie ? ['-H', `Cookie: ${cookie}`] : []),
        `http://127.0.0.1${url}`,
      ]);
      return /x-stackdeck-cache: (\w+)/i.exec(res.stdout)?.[1] ?? 'none';
    };
    const cache = (method: 'POST' | 'DELETE', body?: unknown, what = 'nginxcache') =>
      panel.api(method, `${path(what)}?wsid=${shop.id}`, body);
    const on = await cache('POST', { ttl_seconds: 600 });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, ttl_seconds: 600, status: 'active' });
    expect(await cacheStatus('/who.php')).toBe('MISS');
    expect(await cacheStatus('/who.php')).toBe('HIT');
    expect(await cacheStatus('/who.php?x=1')).toBe('BYPASS');
    expect(await cacheStatus('/who.php', 'wordpress_logged_in_abc=1')).toBe('BYPASS');
    const purged = await cache('POST', undefined, 'nginxcache/purge');
    expect(purged.statusCode, purged.body).toBe(200);
    expect(await cacheStatus('/who.php')).toBe('MISS');
    const off = await cache('DELETE');
    expect(off.json()).toMatchObject({ enabled: false, status: 'active' });
    expect(await cacheStatus('/who.php')).toBe('none');
  });

  it("pages through the app's own access log, newest last on page 1", async () => {
    for (let i = 0; i < 120; i++) await get('shop.test', `/who.php?n=${i}`);
    const log = (page: number, type = 'access') =>
      panel.api('GET', `${path('nginxlog')}?wsid=${shop.id}&scroll_count=${page}&type=${type}`);
    const first = await log(1);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json() as { lines: string[]; total_size: number; has_more: boolean };
    expect(body.lines).toHaveLength(100);
    expect(body.lines[99]).toMatch(/"GET \/who\.php\?n=119 HTTP\/1\.1" 200/);
    expect(body.has_more).toBe(true);
    expect(body.total_size).toBeGreaterThanOrEqual(120);
    const second = (await log(2)).json() as { lines: string[] };
    expect(second.lines.join('\n')).toMatch(/n=19 HTTP/);
    // Its error log reads too (empty or not).
    const errors = await log(1, 'error');
    expect(errors.statusCode).toBe(200);
    // Rotated by the panel's logrotate file: nginx writes a new file, the pages run on into
    // yesterday's.
    await sb.execOk(['logrotate', '-f', '/etc/logrotate.d/stackdeck-apps']);
    // nginx's workers reopen the log a moment after the signal, as www-data (each directory
    // above it must let them through): from then on today's lines are in the live file, not
    // written on into yesterday's.
    const live = '/var/log/stackdeck/apps/shop/nginx.access.log';
    let reopened = false;
    for (let i = 0; i < 40 && !reopened; i++) {
      await get('shop.test', `/who.php?reopen=${i}`);
      reopened = (await sb.execOk(['cat', live])).stdout.includes('reopen=');
      if (!reopened) await new Promise((r) => setTimeout(r, 250));
    }
    expect(reopened).toBe(true);
    for (let i = 0; i < 5; i++) await get('shop.test', `/who.php?after=${i}`);
    expect((await sb.execOk(['cat', live])).stdout).toMatch(/after=4 HTTP/);
    const files = await sb.execOk(['ls', '/var/log/stackdeck/apps/shop']);
    expect(files.stdout).toMatch(/nginx\.access\.log\.1/);
    const rotated = (await log(1)).json() as { lines: string[] };
    expect(rotated.lines[99]).toMatch(/after=4 HTTP/);
    expect(rotated.lines[95]).toMatch(/after=0 HTTP/);
    expect(rotated.lines.some((l) => /n=119 HTTP/.test(l))).toBe(true);
    // A second rotation compresses the first day (.2.gz): the pages read on into it.
    await sb.execOk(['logrotate', '-f', '/etc/logrotate.d/stackdeck-apps']);
    await get('shop.test', '/who.php?again=1');
    const archived = await sb.execOk(['ls', '/var/log/stackdeck/apps/shop']);
    expect(archived.stdout).toMatch(/nginx\.access\.log\.2\.gz/);
    const deep = (await log(1)).json() as { lines: string[]; has_more: boolean };
    expect(deep.lines).toHaveLength(100);
    expect(deep.lines[99]).toMatch(/again=1 HTTP/);
    // The first day's last request, now only in the compressed file, is on the newest page.
    expect(deep.lines.some((l) => /n=119 HTTP/.test(l))).toBe(true);
    expect(deep.has_more).toBe(true);
  });

  it('honours .htaccess rewrites on NGINX plus Apache2', async () => {
    wiki = await create({
      name: 'wiki',
      domains: ['wiki.test'],
      sys_user: 'alice',
      stack_type: 'apache/nginx',
    });
    expect(wiki).toBeTruthy();
    await put('alice', '/home/alice/apps/wiki/public/who.php', WHO);
    await put(
      'alice',
      '/home/alice/apps/wiki/public/.htaccess',
      'RewriteEngine On\nRewriteRule ^pretty$ who.php [L]\n',
    );
    const pretty = await get('wiki.test', '/pretty');
    expect(pretty.status).toBe(200);
    expect(pretty.body).toBe('alice 256M');
    // Apache listens on loopback only; nginx is what the world sees.
    const listening = await sb.execOk(['ss', '-ltnH', 'sport = :8080']);
    expect(listening.stdout).toMatch(/127\.0\.0\.1:8080/);
    // A handler of its own choosing is refused (a .htaccess could otherwise reach another pool).
    await put(
      'alice',
      '/home/alice/apps/wiki/public/.htaccess',
      'SetHandler "proxy:unix:/run/php/php8.2-fpm-stackdeck-blog.sock|fcgi://x"\n',
    );
    expect((await get('wiki.test', '/who.php')).body).toBe('alice 256M');
    // Nor may it hand PHP-FPM settings of its own (mod_rewrite's E= flag reaches FastCGI as
    // PHP_ADMIN_VALUE, which would lift open_basedir and every limit of the pool).
    await put(
      'alice',
      '/home/alice/apps/wiki/public/.htaccess',
      'RewriteEngine On\nRewriteRule ^ - [E=PHP_ADMIN_VALUE:memory_limit=999M,E=PHP_VALUE:memory_limit=998M]\n',
    );
    expect((await get('wiki.test', '/who.php')).body).toBe('alice 256M');
    // Links to another user's files are not followed by Apache either.
    await sb.execOk([
      'runuser',
      '-u',
      'alice',
      '--',
      'ln',
      '-s',
      '/home/bob/apps/blog/secret.txt',
      '/home/alice/apps/wiki/public/steal.sql',
    ]);
    await put('alice', '/home/alice/apps/wiki/public/.htaccess', 'Options +FollowSymLinks\n');
    expect((await get('wiki.test', '/steal.sql')).body).not.toMatch(/bob only/);
  });

  it("runs no PHP of an app as the web server's user, even where Debian's own PHP handler is on", async () => {
    // Installing PHP-FPM after Apache turns on Debian's handler for every .phtml and .phar,
    // to the stock pool that runs as www-data (which can read every app) without open_basedir.
    await sb.execOk(['a2enconf', '-q', 'php8.2-fpm']);
    const rebuilt = await panel.api('PATCH', one('webstacks/rebuild', wiki.id));
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    await put('alice', '/home/alice/apps/wiki/public/.htaccess', '');
    await put('alice', '/home/alice/apps/wiki/public/who.phtml', WHO);
    const phtml = await get('wiki.test', '/who.phtml');
    expect(phtml.body).not.toMatch(/www-data/);
    expect(phtml.body).not.toMatch(/<\?php/);
    // The stock pool is set aside: its socket now belongs to a guard that runs nothing.
    const pools = await sb.execOk(['ls', '/etc/php/8.2/fpm/pool.d']);
    expect(pools.stdout).not.toMatch(/^www\.conf$/m);
  });

  it('refuses a domain another site of the server already serves, in nginx words', async () => {
    await sb.execOk(['tee', '/etc/nginx/conf.d/legacy.conf'], {
      input: 'server { listen 80; server_name old.test; return 200 "legacy"; }\n',
    });
    await sb.execOk(['nginx', '-s', 'reload']);
    const res = await panel.api('POST', path('webstacks'), {
      name: 'clash',
      domains: ['old.test'],
      sys_user: 'bob',
    });
    // The server refused it (nginx's warning), so the create answers with the field's error.
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.domains).toMatch(
      /old\.test is served by another site of the server: conflicting server name/,
    );
    // The other site keeps its name.
    expect((await get('old.test')).body).toBe('legacy');
    // Nothing of the app is left behind on the server.
    const left = await sb.exec(['ls', '/etc/nginx/conf.d/stackdeck-clash.conf']);
    expect(left.stderr).toMatch(/No such file/);
    await sb.execOk(['rm', '/etc/nginx/conf.d/legacy.conf']);
  });

  it('refuses an invalid snippet of the user on rebuild and keeps serving the old configuration', async () => {
    await sb.execOk(['tee', '/etc/stackdeck/nginx/shop/broken.conf'], {
      input: 'location /x { not_a_directive on; }\n',
    });
    const res = await panel.api('PATCH', one('webstacks/rebuild', shop.id));
    // The server refused the change (422), in nginx's own words.
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(/nginx refused the configuration.*not_a_directive/);
    expect((await get('shop.test', '/who.php')).body).toBe('alice 384M');
    // The snippet is the user's to fix; the panel's files are as before, and nginx -t says so
    // once it is gone.
    await sb.execOk(['rm', '/etc/stackdeck/nginx/shop/broken.conf']);
    await sb.execOk(['nginx', '-t', '-q']);
    const again = await panel.api('PATCH', one('webstacks/rebuild', shop.id));
    expect(again.statusCode, again.body).toBe(200);
  });

  it('removes an app: its domain no longer answers, its files and pool are gone', async () => {
    const gone = await create({ name: 'gone', domains: ['gone.test'], sys_user: 'bob' });
    expect((await get('gone.test')).status).toBe(200);
    const res = await panel.api('DELETE', one('webstacks', gone.id));
    expect(res.statusCode, res.body).toBe(200);
    expect((await get('gone.test')).body).not.toMatch(/gone\.test runs PHP/);
    const left = await sb.exec([
      'ls',
      '/home/bob/apps/gone',
      '/etc/php/8.2/fpm/pool.d/stackdeck-gone.conf',
      '/etc/nginx/conf.d/stackdeck-gone.conf',
    ]);
    expect(left.stderr.match(/No such file/g)).toHaveLength(3);
    // The others still serve.
    expect((await get('blog.test', '/who.php')).body).toBe('bob 256M');
  });
});
