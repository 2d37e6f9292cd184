import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * An app moves between PHP versions. Debian 12 ships only PHP 8.2 and this machine cannot
 * download another, so the second runtime is PHP 8.2's own FPM installed a second time under
 * the name 8.1, the way a Sury package lays one out: `/usr/sbin/php-fpm8.1`, `/etc/php/8.1/fpm`
 * with its pool.d, `/etc/init.d/php8.1-fpm`, its own master and sockets. Only the version
 * label is not real: everything the panel does on a switch (pool moved, socket and nginx's
 * fastcgi_pass changed, both masters checked and reloaded) runs for real, and the answering
 * master is told apart by its binary.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const one = (p: string, id: number) => `${p}/${id}/servers/${server.id}/users/${panel.uid}`;

/** Installs PHP 8.2's FPM a second time as "8.1", inside the sandbox only. */
async function secondRuntime() {
  await sb.execOk([
    'sh',
    '-ec',
    [
      'cp /usr/sbin/php-fpm8.2 /usr/sbin/php-fpm8.1',
      'mkdir -p /etc/php/8.1',
      'cp -a /etc/php/8.2/fpm /etc/php/8.1/fpm',
      // Only the package's own stock pool comes along (the agent sets it aside as for 8.2).
      'rm -f /etc/php/8.1/fpm/pool.d/stackdeck*',
      "sed -i 's/8\\.2/8.1/g' /etc/php/8.1/fpm/pool.d/www.conf",
      "sed -i 's/8\\.2/8.1/g' /etc/php/8.1/fpm/php-fpm.conf",
      "sed 's/8\\.2/8.1/g' /etc/init.d/php8.2-fpm > /etc/init.d/php8.1-fpm",
      'chmod 755 /etc/init.d/php8.1-fpm',
      "sed 's/8\\.2/8.1/g' /usr/lib/tmpfiles.d/php8.2-fpm.conf > /usr/lib/tmpfiles.d/php8.1-fpm.conf",
    ].join('\n'),
  ]);
}

/** The binary of the FPM master that runs the app's page (its worker's parent). */
async function answeringMaster(domain: string): Promise<string> {
  const res = await sb.execOk(['curl', '-s', '-H', `Host: ${domain}`, 'http://127.0.0.1/ppid.php']);
  const ppid = Number(res.stdout.trim());
  expect(ppid, res.stdout).toBeGreaterThan(1);
  return (await sb.execOk(['readlink', `/proc/${ppid}/exe`])).stdout.trim();
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'phpversions', ['nginx', 'php8.2-fpm']));
  const res = await panel.api('POST', path('sysusers'), {
    user_name: 'carol',
    password: 'a long system password 1',
  });
  expect(res.statusCode, res.body).toBe(201);
  await secondRuntime();
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('PHP versions of a server', () => {
  let app: { id: number };

  it('lists the versions the server has and where each comes from', async () => {
    const res = await panel.api('GET', path('webstacks/php'));
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json() as { data: { version: string; source: string }[] };
    expect(data.map((r) => [r.version, r.source])).toEqual([
      ['8.1', 'other'],
      ['8.2', 'debian'],
    ]);
  });

  it("switches an app's PHP version: its pool, socket and vhost move, and the other master runs it", async () => {
    const created = await panel.api('POST', path('webstacks'), {
      name: 'multi',
      domains: ['multi.test'],
      sys_user: 'carol',
      php_version: '8.2',
    });
    expect(created.statusCode, created.body).toBe(201);
    app = created.json() as { id: number };
    expect(app, created.body).toMatchObject({ status: 'active' });
    await sb.execOk(
      ['runuser', '-u', 'carol', '--', 'tee', '/home/carol/apps/multi/public/ppid.php'],
      {
        input: '<?php echo posix_getppid();',
      },
    );
    expect(await answeringMaster('multi.test')).toBe('/usr/sbin/php-fpm8.2');

    const moved = await panel.api('PATCH', one('webstacks', app.id), { php_version: '8.1' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ php_version: '8.1', status: 'active' });
    expect(await answeringMaster('multi.test')).toBe('/usr/sbin/php-fpm8.1');
    const pools = await sb.execOk([
      'sh',
      '-c',
      'ls /etc/php/8.1/fpm/pool.d /etc/php/8.2/fpm/pool.d',
    ]);
    expect(pools.stdout).toMatch(/\/etc\/php\/8\.1\/fpm\/pool\.d:\n(.*\n)*stackdeck-multi\.conf/);
    expect(pools.stdout).not.toMatch(
      /\/etc\/php\/8\.2\/fpm\/pool\.d:\n(.*\n)*stackdeck-multi\.conf/,
    );
    const vhost = await sb.execOk(['cat', '/etc/nginx/conf.d/stackdeck-multi.conf']);
    expect(vhost.stdout).toMatch(/php8\.1-fpm-stackdeck-multi\.sock/);

    const back = await panel.api('PATCH', one('webstacks', app.id), { php_version: '8.2' });
    expect(back.statusCode, back.body).toBe(200);
    expect(await answeringMaster('multi.test')).toBe('/usr/sbin/php-fpm8.2');
  });

  it('checks each version against its own configuration: a broken 8.1 refuses the change', async () => {
    await sb.execOk(['sh', '-c', 'echo "[broken" > /etc/php/8.1/fpm/pool.d/zz-broken.conf']);
    const res = await panel.api('PATCH', one('webstacks', app.id), { php_version: '8.1' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.body).toMatch(/PHP-FPM 8\.1 refused the configuration/);
    await sb.execOk(['rm', '/etc/php/8.1/fpm/pool.d/zz-broken.conf']);
    // Nothing moved: 8.2 still runs it.
    expect(await answeringMaster('multi.test')).toBe('/usr/sbin/php-fpm8.2');
  });

  it('fails a change to a version whose FPM does not start, and the old one keeps serving', async () => {
    // Without its tmpfiles entry Debian's init script says "started" and starts nothing.
    await sb.execOk([
      'sh',
      '-c',
      '/etc/init.d/php8.1-fpm stop; mv /usr/lib/tmpfiles.d/php8.1-fpm.conf /root/',
    ]);
    const res = await panel.api('PATCH', one('webstacks', app.id), { php_version: '8.1' });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.body).toMatch(/PHP-FPM 8\.1 does not run the app's pool after the reload/);
    expect(await answeringMaster('multi.test')).toBe('/usr/sbin/php-fpm8.2');
    await sb.execOk(['mv', '/root/php8.1-fpm.conf', '/usr/lib/tmpfiles.d/']);
  });

  it("offers what apt's sources have and installs from them; a version no source has is refused", async () => {
    const available = await panel.api('GET', path('webstacks/php/available'));
    expect(available.statusCode, available.body).toBe(200);
    const rows = (available.json() as { data: { version: string; installed: boolean }[] }).data;
    // 8.2 from Debian; "8.1" is installed outside the package manager (no source offers it).
    expect(rows.find((r) => r.version === '8.2')).toMatchObject({ installed: true });
    expect(rows.find((r) => r.version === '8.1')).toMatchObject({
      installed: true,
      candidate: null,
      from: null,
    });
    expect(rows.find((r) => r.version === '8.3')).toBeUndefined();

    const refused = await panel.api('POST', path('webstacks/php'), { version: '8.3' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toMatch(/No package source of the server offers PHP 8\.3.*Sury/);
    // apt-get really runs: for 8.2 everything is in place already, so nothing is downloaded.
    const again = await panel.api('POST', path('webstacks/php'), { version: '8.2' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ version: '8.2', running: true });
    const dpkg = await sb.execOk(['dpkg-query', '-W', '-f=${Status}', 'php8.2-fpm']);
    expect(dpkg.stdout).toBe('install ok installed');
  });

  it('refuses a version the server does not have, saying which it has', async () => {
    const res = await panel.api('PATCH', one('webstacks', app.id), { php_version: '7.4' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toMatch(/PHP 7\.4 is not installed on the server \(it has 8\.1, 8\.2\)/);
  });
});
