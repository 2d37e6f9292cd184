import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import {
  type Panel,
  type ServerRecord,
  activity,
  createServer,
  installedSandbox,
  startPanel,
  waitConnected,
} from './harness/panel';

/**
 * The machine-wide ops on a real server: host name, services, cleanup, reboot, an offline
 * server, and the removal of a server whose agent is online. The panel's API drives the real
 * agent in a sandbox; real clients inside check what happened.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string, sid = server.id) => `${p}/servers/${sid}/users/${panel.uid}`;

async function sh(script: string): Promise<string> {
  return (await sb.execOk(['bash', '-c', script])).stdout.trim();
}

/** The agent's processes (pgrep run directly: a shell around it would match itself). */
async function agentPids(): Promise<string[]> {
  const res = await sb.exec(['pgrep', '-f', 'node /opt/stackdeck/agent.mjs']);
  return res.stdout.split('\n').filter(Boolean);
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'machine', ['ssh', 'nginx', 'cron']));
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('a connected server', () => {
  it('was installed by the install command as an init.d service', async () => {
    expect(server.connected).toBe(true);
    expect(await sh('ls /etc/rc2.d | grep stackdeck-agent')).toMatch(/^S\d\dstackdeck-agent$/);
    expect(await agentPids()).toHaveLength(1);
  });

  it('changes the host name: hostname and /etc/hostname', async () => {
    const res = await panel.api('PUT', path('hostname'), { hostname: 'web-42.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hostname: 'web-42.example.com' });
    expect(await sh('hostname')).toBe('web-42.example.com');
    expect(await sh('cat /etc/hostname')).toBe('web-42.example.com');
    expect(await sh('grep ^127.0.1.1 /etc/hosts')).toBe('127.0.1.1\tweb-42.example.com web-42');
    const bad = await panel.api('PUT', path('hostname'), { hostname: 'bad;name' });
    expect(bad.statusCode).toBe(400);
    expect(await sh('hostname')).toBe('web-42.example.com');
  });

  it('lists services as they really run', async () => {
    const res = await panel.api('GET', path('servicemgmt'));
    expect(res.statusCode).toBe(200);
    const byName = Object.fromEntries(
      (res.json() as { data: { name: string; installed: boolean; running: boolean }[] }).data.map(
        (s) => [s.name, s],
      ),
    );
    expect(Object.keys(byName).sort()).toEqual(
      ['cron', 'ftp', 'mail', 'mariadb', 'nginx', 'php-fpm', 'sshd', 'supervisor'].sort(),
    );
    for (const name of ['nginx', 'cron', 'sshd'])
      expect(byName[name], name).toMatchObject({ installed: true, running: true });
    // Installed on this machine but not enabled in this sandbox: installed, not running.
    for (const name of ['mariadb', 'supervisor', 'ftp'])
      expect(byName[name], name).toMatchObject({ installed: true, running: false });
    expect(byName['php-fpm']).toMatchObject({ units: ['php8.2-fpm'], running: false });
    expect(byName.mail).toMatchObject({ units: ['postfix', 'dovecot'] });
  });

  it('stops and starts nginx for real; refuses to stop sshd', async () => {
    const curl = () => sb.exec(['curl', '-sS', '-o', '/dev/null', '-m', '5', 'http://127.0.0.1/']);
    expect((await curl()).code).toBe(0);
    const stop = await panel.api('PATCH', `${path('servicemgmt')}?action=stop`, {
      service: 'nginx',
    });
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toMatchObject({ name: 'nginx', running: false });
    expect((await curl()).code).not.toBe(0);
    expect((await sb.exec(['pgrep', '-x', 'nginx'])).code).not.toBe(0);

    const start = await panel.api('PATCH', `${path('servicemgmt')}?action=start`, {
      service: 'nginx',
    });
    expect(start.json()).toMatchObject({ name: 'nginx', running: true });
    expect((await curl()).code).toBe(0);
    const reload = await panel.api('PATCH', `${path('servicemgmt')}?action=reload`, {
      service: 'nginx',
    });
    expect(reload.json()).toMatchObject({ running: true });

    const sshd = await panel.api('PATCH', `${path('servicemgmt')}?action=stop`, {
      service: 'sshd',
    });
    expect(sshd.statusCode).toBe(422);
    expect(sshd.json()).toMatchObject({ message: expect.stringMatching(/lock you out/) });
    const restart = await panel.api('PATCH', `${path('servicemgmt')}?action=restart`, {
      service: 'sshd',
    });
    expect(restart.json()).toMatchObject({ running: true });
    expect(await sh('/etc/init.d/ssh status >/dev/null && echo up')).toBe('up');
  });

  it('cleans up package caches and old logs, and tells what it freed', async () => {
    await sh(
      [
        'mkdir -p /var/cache/apt/archives/partial',
        'head -c 300000 /dev/urandom >/var/cache/apt/archives/stackdeck-test.deb',
        'head -c 40000 /dev/urandom >/var/log/stackdeck-test.log.3.gz',
        'touch -d "10 days ago" /var/log/stackdeck-test.log.3.gz',
        'echo live >/var/log/stackdeck-test.log',
      ].join(' && '),
    );
    const res = await panel.api('PATCH', path('cleanup'));
    expect(res.statusCode).toBe(200);
    const freed = res.json() as { packages: number; logs: number; journal: number };
    expect(freed.packages).toBeGreaterThanOrEqual(300_000);
    expect(freed.logs).toBeGreaterThanOrEqual(40_000);
    expect(freed.journal).toBeGreaterThanOrEqual(0);
    expect(await sh('ls /var/cache/apt/archives/*.deb 2>/dev/null | wc -l')).toBe('0');
    expect((await sb.exec(['test', '-e', '/var/log/stackdeck-test.log.3.gz'])).code).not.toBe(0);
    expect(await sh('cat /var/log/stackdeck-test.log')).toBe('live');
  });

  it('reboots: the sandbox comes back and its agent connects again', async () => {
    const before = await agentPids();
    const reboots = sb.reboots;
    const res = await panel.api('POST', path('reboot'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ rebooting: true });
    // The sandbox really rebooted (a new init), and a new agent connected. Whether the panel
    // shows the server offline in between is a race: the agent is back within seconds, and
    // its new connection replaces the old one before a dead socket times out.
    await sb.waitForReboot(120_000);
    expect(sb.reboots).toBe(reboots + 1);
    await waitConnected(panel, server.id, true, 60_000);
    // (/proc/uptime is the host's in a sandbox: no time namespace; the new init tells.)
    const ping = await panel.api('GET', path('ping'));
    expect(ping.statusCode).toBe(200);
    expect(await sh('hostname')).toBe('web-42.example.com');
    const after = await agentPids();
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });
});

describe('an offline server', () => {
  it('fails an op at once with a clear message, and logs it', async () => {
    const { server: offline } = await createServer(panel, 'never-installed');
    // At once: the offline answer, not the op's timeout ("did not answer in time").
    const res = await panel.api('POST', path('reboot', offline.id));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      message: 'The server is offline: its agent is not connected',
    });
    const log = await activity(panel, offline.id);
    expect(log[0]).toMatchObject({
      message: 'Reboot',
      status: 'failed',
      error: 'The server is offline: its agent is not connected',
    });
  });
});

describe('removing a server', () => {
  it('left an activity line for every op on the connected server', async () => {
    const log = await activity(panel, server.id);
    const messages = log.map((l) => `${l.message}: ${l.status}`);
    for (const line of [
      'Set the host name to web-42.example.com: done',
      'stop nginx: done',
      'start nginx: done',
      'reload nginx: done',
      'stop sshd: failed',
      'restart sshd: done',
      'Clean up package caches, old logs and the journal: done',
      'Reboot: done',
    ])
      expect(messages).toContain(line);
    expect(log.filter((l) => l.status === 'pending')).toEqual([]);
  });

  it('stops and removes an online agent: no process, no files, no service', async () => {
    const res = await panel.api('DELETE', `servers/${server.id}/users/${panel.uid}`);
    expect(res.statusCode).toBe(200);
    await sb.waitFor(async () => (await agentPids()).length === 0, 20_000);
    await sb.waitFor(
      async () => (await sb.exec(['test', '-e', '/opt/stackdeck'])).code !== 0,
      20_000,
    );
    for (const file of [
      '/opt/stackdeck',
      '/etc/stackdeck',
      '/etc/init.d/stackdeck-agent',
      '/etc/systemd/system/stackdeck-agent.service',
    ])
      expect((await sb.exec(['test', '-e', file])).code, file).not.toBe(0);
    expect(await sh('ls /etc/rc*.d | grep -c stackdeck-agent || true')).toBe('0');
    expect((await panel.api('GET', `servers/${server.id}/users/${panel.uid}`)).statusCode).toBe(
      404,
    );
    // And it stays gone after a reboot.
    await sb.reboot();
    expect(await agentPids()).toEqual([]);
  });
});
