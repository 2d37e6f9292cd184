import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../api/helpers';
import { activity } from './harness/panel';
import { usePanelSandbox } from './harness/panelSandbox';

/**
 * The admins' 911 scripts on a real server: an admin runs them, confirmed by a mailed code, on
 * a user's sandbox server through the real agent; the real programs inside tell what changed
 * (nginx and PHP-FPM PIDs, pages answered by curl, apt's cache and old logs gone, a package lock
 * freed, MariaDB restarted and answering).
 */
const sys = usePanelSandbox('emergency', ['nginx', 'php8.2-fpm', 'mariadb']);
const { sh } = sys;
let admin: TestUser;

interface Task {
  status: string;
  events: { event: string; code: number }[];
}

/** The oldest process of that name (pgrep run directly: a shell around it would match itself). */
async function pid(name: string): Promise<string> {
  return (await sys.sb.exec(['pgrep', '-o', '-x', name])).stdout.trim();
}

const curl = (url: string) => sys.sb.exec(['curl', '-sS', '-f', '-m', '5', url]);

/** Runs a script as the admin with a fresh mailed code; answers its task once ended. */
async function runScript(script: string, params: object = {}): Promise<Task> {
  const sent = await sys.panel.t.call('GET', `/api/v1/users/${admin.id}/otp`, {
    token: admin.token,
  });
  expect(sent.statusCode).toBe(200);
  const otp = await sys.panel.t.codeIn(admin.email);
  const res = await sys.panel.t.call('PATCH', `/api/v1/admin/common-script?otp=${otp}`, {
    token: admin.token,
    body: { script, servers: [sys.server.id], params },
  });
  expect(res.statusCode, res.body).toBe(202);
  const taskId = (res.json() as { servers: { task_id: number }[] }).servers[0]!.task_id;
  const end = Date.now() + 240_000;
  for (;;) {
    const got = await sys.panel.t.call(
      'GET',
      `/api/v1/clone-events/users/${admin.id}?id=${taskId}`,
      {
        token: admin.token,
      },
    );
    const task = (got.json() as { data: Task[] }).data[0];
    if (task && task.status !== 'running') return task;
    if (Date.now() > end) throw new Error(`${script} still running`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const lines = (task: Task) => task.events.map((e) => e.event);

beforeAll(async () => {
  admin = await sys.panel.t.user({ admin: true });
  // A PHP site on port 8081 whose page answers the PID of the FPM worker that ran it.
  const site =
    'server { listen 8081; root /srv/e911; location ~ \\.php$ { include snippets/fastcgi-php.conf; fastcgi_pass unix:/run/php/php8.2-fpm.sock; } }';
  await sh(
    [
      'mkdir -p /srv/e911',
      "printf '<?php echo getmypid();' >/srv/e911/pid.php",
      `printf '%s\\n' '${site}' >/etc/nginx/sites-enabled/e911`,
      'nginx -t 2>/dev/null',
      '/etc/init.d/nginx reload >/dev/null',
    ].join(' && '),
  );
}, 300_000);

describe('restart the web stack', () => {
  it('restarts nginx and PHP-FPM: new PIDs, the sites still answer', async () => {
    const nginxBefore = await pid('nginx');
    const fpmBefore = await pid('php-fpm8.2');
    expect(nginxBefore).not.toBe('');
    expect(fpmBefore).not.toBe('');
    expect((await curl('http://127.0.0.1/')).code).toBe(0);
    const workerBefore = (await curl('http://127.0.0.1:8081/pid.php')).stdout;
    expect(workerBefore).toMatch(/^\d+$/);

    const task = await runScript('restart-web-stack');
    expect(task.status, lines(task).join('\n')).toBe('completed');
    const nginxAfter = await pid('nginx');
    const fpmAfter = await pid('php-fpm8.2');
    expect(nginxAfter).not.toBe('');
    expect(nginxAfter).not.toBe(nginxBefore);
    expect(fpmAfter).not.toBe('');
    expect(fpmAfter).not.toBe(fpmBefore);
    expect(lines(task)).toEqual(
      expect.arrayContaining([
        'Web stack: nginx, php8.2-fpm',
        'Left alone (installed, not running, not started at boot): apache2',
        'nginx: configuration OK',
        `nginx: running, PID ${nginxBefore} -> ${nginxAfter}`,
        'php8.2-fpm: configuration OK',
        `php8.2-fpm: running, PID ${fpmBefore} -> ${fpmAfter}`,
        'Restarted nginx, php8.2-fpm',
      ]),
    );
    expect((await curl('http://127.0.0.1/')).code).toBe(0);
    const workerAfter = await curl('http://127.0.0.1:8081/pid.php');
    expect(workerAfter.code).toBe(0);
    expect(workerAfter.stdout).toMatch(/^\d+$/);
    expect(workerAfter.stdout).not.toBe(workerBefore);

    const log = await activity(sys.panel, sys.server.id);
    expect(log[0]).toMatchObject({ message: '911 script: Restart the web stack', status: 'done' });
  });

  it('leaves a service with a broken configuration running as it was, and says so', async () => {
    await sh(
      "printf 'server { listen 8082; bad_directive on; }\\n' >/etc/nginx/sites-enabled/broken",
    );
    try {
      const nginxBefore = await pid('nginx');
      const fpmBefore = await pid('php-fpm8.2');
      const task = await runScript('restart-web-stack');
      expect(task.status).toBe('failed');
      expect(lines(task).join('\n')).toMatch(/nginx: configuration test failed, not restarted/);
      expect(task.events.at(-1)?.event).toBe('nginx: configuration test failed');
      expect(await pid('nginx')).toBe(nginxBefore);
      expect((await curl('http://127.0.0.1/')).code).toBe(0);
      // The rest of the stack was still restarted.
      expect(await pid('php-fpm8.2')).not.toBe(fpmBefore);
    } finally {
      await sh('rm -f /etc/nginx/sites-enabled/broken');
    }
  });
});

describe('free disk space', () => {
  it("empties apt's cache and removes rotated logs older than the days kept", async () => {
    await sh(
      [
        'mkdir -p /var/cache/apt/archives/partial',
        'head -c 500000 /dev/urandom >/var/cache/apt/archives/e911-test.deb',
        'head -c 40000 /dev/urandom >/var/log/e911.log.2.gz',
        'touch -d "10 days ago" /var/log/e911.log.2.gz',
        'head -c 1000 /dev/urandom >/var/log/e911.log.1.gz',
        'touch -d "2 days ago" /var/log/e911.log.1.gz',
        'echo live >/var/log/e911.log',
      ].join(' && '),
    );
    const cacheBefore = Number(await sh('du -sb /var/cache/apt/archives | cut -f1'));
    const task = await runScript('free-disk', { keep_days: 7 });
    expect(task.status, lines(task).join('\n')).toBe('completed');
    const cacheAfter = Number(await sh('du -sb /var/cache/apt/archives | cut -f1'));
    expect(cacheBefore - cacheAfter).toBeGreaterThanOrEqual(500_000);
    expect(await sh('ls /var/cache/apt/archives/*.deb 2>/dev/null | wc -l')).toBe('0');
    expect((await sys.sb.exec(['test', '-e', '/var/log/e911.log.2.gz'])).code).not.toBe(0);
    expect(await sh('test -e /var/log/e911.log.1.gz && echo kept')).toBe('kept');
    expect(await sh('cat /var/log/e911.log')).toBe('live');
    // (The sandbox sees the host's apt cache through its overlay: its size is the host's.)
    expect(lines(task)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^apt-get clean \(package cache: [\d.]+ [KMG]?B\)$/),
        'removed /var/log/e911.log.2.gz (39.1 KB)',
        'Old logs: 1 files, freed 39.1 KB',
      ]),
    );
    expect(task.events.at(-1)?.event).toMatch(
      /^Freed \S+ \S+ \(package cache \S+ \S+, journal \S+ \S+, old logs 39\.1 KB\); free on \/: /,
    );
  });
});

describe('unlock a stuck package manager', () => {
  /** A holder of dpkg's front-end lock, named `name` (util-linux's flock under that name). */
  async function holdLock(name: string): Promise<string> {
    await sh(`mkdir -p /tmp/e911 && cp /usr/bin/flock /tmp/e911/${name}`);
    await sh(
      `setsid /tmp/e911/${name} -o /var/lib/dpkg/lock-frontend sleep 600 </dev/null >/dev/null 2>&1 &`,
    );
    for (let i = 0; i < 50; i += 1) {
      const found = await pid(name);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${name} did not start`);
  }

  it('refuses to stop a holder unless asked; then stops apt-get and configures dpkg', async () => {
    const holder = await holdLock('apt-get');
    const waited = await runScript('unlock-package-manager', { wait_seconds: 0 });
    expect(waited.status).toBe('failed');
    expect(waited.events.at(-1)?.event).toBe(
      `The package locks are still held by apt-get (PID ${holder}); wait longer, or run again stopping stale holders`,
    );
    expect(await pid('apt-get')).toBe(holder);

    const task = await runScript('unlock-package-manager', { wait_seconds: 0, kill_stale: true });
    expect(task.status, lines(task).join('\n')).toBe('completed');
    expect(await pid('apt-get')).toBe('');
    expect(lines(task)).toEqual(
      expect.arrayContaining([
        `Stopping PID ${holder} (TERM)`,
        'The package locks are free',
        'dpkg --configure -a',
        'apt-get check',
        'The package manager is unlocked and its packages configured',
      ]),
    );
    // The lock file stays; apt takes it again.
    expect(await sh('test -e /var/lib/dpkg/lock-frontend && echo there')).toBe('there');
    expect((await sys.sb.exec(['apt-get', 'check'])).code).toBe(0);
  });

  it('never stops a program that is not apt or dpkg', async () => {
    const holder = await holdLock('backupd');
    try {
      const task = await runScript('unlock-package-manager', {
        wait_seconds: 0,
        kill_stale: true,
      });
      expect(task.status).toBe('failed');
      expect(task.events.at(-1)?.event).toBe(
        `The package locks are held by backupd (PID ${holder}), which is not apt or dpkg: not stopped`,
      );
      expect(await pid('backupd')).toBe(holder);
    } finally {
      await sys.sb.exec(['pkill', '-x', 'backupd']);
    }
  });
});

describe('the database and the disk', () => {
  it('restarts MariaDB, which answers again', async () => {
    const before = await pid('mariadbd');
    expect(before).not.toBe('');
    const task = await runScript('restart-database');
    expect(task.status, lines(task).join('\n')).toBe('completed');
    const after = await pid('mariadbd');
    expect(after).not.toBe('');
    expect(after).not.toBe(before);
    expect(await sh("mariadb -N -e 'select 1'")).toBe('1');
    expect(lines(task)).toContain('mariadb: answers (mariadb-admin ping)');
  });

  it('shows what eats disk, changing nothing', async () => {
    await sh('mkdir -p /srv/e911/big && head -c 3000000 /dev/zero >/srv/e911/big/blob');
    const task = await runScript('disk-usage');
    expect(task.status, lines(task).join('\n')).toBe('completed');
    const text = lines(task).join('\n');
    expect(text).toMatch(/^Filesystems:$/m);
    expect(text).toMatch(/Filesystem\s+Size\s+Used/);
    // The largest folders, biggest first (the sandbox sees the host's /opt and /usr).
    const sizes = [...text.matchAll(/^\s*([\d.]+) (B|KB|MB|GB|TB) {2}\/\S+$/gm)].map(
      ([, n, unit]) => Number(n) * 1024 ** ['B', 'KB', 'MB', 'GB', 'TB'].indexOf(unit!),
    );
    expect(sizes.length).toBeGreaterThanOrEqual(5);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    expect(text).toMatch(/^Package cache \(\/var\/cache\/apt\/archives\): /m);
    expect(await sh('test -e /srv/e911/big/blob && echo kept')).toBe('kept');
  });
});
