import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * Supervisor jobs on a real server: the panel's API drives the real agent in a sandbox with
 * its own supervisord, and the sandbox's programs check the outcome: `supervisorctl status`,
 * `curl` to the port the program listens on, `ps` for the process and its children.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const PORT = 18_080;
/** A program that listens on the port, as alice, and forks a child that outlives a plain TERM. */
const job = {
  name: 'web',
  command: `/usr/bin/python3 -m http.server ${PORT} --bind 127.0.0.1`,
  directory: '/home/alice',
  user: 'alice',
  numprocs: 1,
  autostart: true,
  autorestart: true,
};
const curl = () =>
  sb.exec(['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', `http://127.0.0.1:${PORT}/`]);
const status = async () => (await sb.exec(['supervisorctl', 'status'])).stdout;

async function until(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(250);
  }
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'supervisor', ['supervisor']));
  const user = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('supervisor jobs on a sandbox server', () => {
  it('runs a program as its user: RUNNING, and it answers on its port', async () => {
    const res = await panel.api('POST', path('svjobs'), job);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'web', status: 'active', autostart: true });
    const conf = (await sb.execOk(['cat', '/etc/supervisor/conf.d/stackdeck-web.conf'])).stdout;
    expect(conf).toContain('stopasgroup=true\nkillasgroup=true');
    expect(await status()).toMatch(/^stackdeck-web:stackdeck-web_00\s+RUNNING\s+pid \d+/m);
    expect((await curl()).stdout).toBe('200');
    const owner = await sb.execOk(['pgrep', '-u', 'alice', '-f', `http.server ${PORT}`]);
    expect(owner.stdout.trim()).toMatch(/^\d+$/);

    const procs = await panel.api('GET', path('svjobs/procs'));
    expect(procs.json().data).toEqual([
      expect.objectContaining({ name: 'web', process: 'web_00', state: 'RUNNING' }),
    ]);
  });

  it('stops, starts and restarts it; the port closes while it is stopped', async () => {
    const stop = await panel.api('GET', `${path('svjobs/handle')}?name=web&action=stop`);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().data[0]).toMatchObject({ state: 'STOPPED' });
    expect((await curl()).stdout).toBe('000');

    const start = await panel.api('GET', `${path('svjobs/handle')}?name=web&action=start`);
    expect(start.json().data[0]).toMatchObject({ state: 'RUNNING' });
    await until(async () => (await curl()).stdout === '200');

    const before = (await status()).match(/pid (\d+)/)![1];
    const restart = await panel.api('GET', `${path('svjobs/handle')}?name=web&action=restart`);
    expect(restart.json().data[0]).toMatchObject({ state: 'RUNNING' });
    expect((await status()).match(/pid (\d+)/)![1]).not.toBe(before);
  });

  it('brings it back when it is killed', async () => {
    const pid = (await status()).match(/pid (\d+)/)![1]!;
    await sb.execOk(['kill', '-9', pid]);
    await until(async () => {
      const now = (await status()).match(/RUNNING\s+pid (\d+)/)?.[1];
      return Boolean(now && now !== pid);
    });
    await until(async () => (await curl()).stdout === '200');
  });

  it('refuses a program that does not stay up, and leaves nothing behind', async () => {
    const res = await panel.api('POST', path('svjobs'), {
      ...job,
      name: 'broken',
      command: '/bin/false',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.command).toMatch(/did not stay running/);
    expect(
      (await sb.exec(['test', '-e', '/etc/supervisor/conf.d/stackdeck-broken.conf'])).code,
    ).toBe(1);
    expect(await status()).not.toContain('stackdeck-broken');
    const list = await panel.api('GET', path('svjobs'));
    expect(list.json().data.map((j: { name: string }) => j.name)).toEqual(['web']);
  });

  it('keeps the old program when a change is refused, and takes a good one', async () => {
    const conf = '/etc/supervisor/conf.d/stackdeck-web.conf';
    const bad = await panel.api('POST', `${path('svjobs')}?rebuild=true`, {
      ...job,
      command: '/bin/false',
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors.command).toMatch(/did not stay running/);
    // The old file is back and supervisord runs the old program again.
    expect((await sb.execOk(['cat', conf])).stdout).toContain(`http.server ${PORT}`);
    await until(async () => /stackdeck-web_00\s+RUNNING/.test(await status()));
    await until(async () => (await curl()).stdout === '200');

    const good = await panel.api('POST', `${path('svjobs')}?rebuild=true`, job);
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ name: 'web', status: 'active', error: null });
    await until(async () => (await curl()).stdout === '200');
  });

  it('stops the whole group, children too, and deletes the program', async () => {
    // A program whose shell forks a sleeping child: stopasgroup must take the child along.
    const forked = await panel.api('POST', path('svjobs'), {
      ...job,
      name: 'forker',
      command: '/bin/bash -c "sleep 1234 & wait"',
    });
    expect(forked.statusCode, forked.body).toBe(201);
    await until(async () => (await sb.exec(['pgrep', '-f', 'sleep 1234'])).code === 0);
    const del = await panel.api('DELETE', path('svjobs/forker'));
    expect(del.json()).toEqual({ id: forked.json().id, status: 'deleted' });
    await until(async () => (await sb.exec(['pgrep', '-f', 'sleep 1234'])).code !== 0);
    expect(await status()).not.toContain('stackdeck-forker');

    const web = await panel.api('DELETE', path('svjobs/web'));
    expect(web.json().status).toBe('deleted');
    expect((await sb.exec(['test', '-e', '/etc/supervisor/conf.d/stackdeck-web.conf'])).code).toBe(
      1,
    );
    await until(async () => (await curl()).stdout === '000');
  });

  it('rebuilds a job from the panel after a hand edit, and shows the drift first', async () => {
    const res = await panel.api('POST', path('svjobs'), { ...job, name: 'again' });
    expect(res.statusCode, res.body).toBe(201);
    await sb.execOk([
      'sed',
      '-i',
      's/^numprocs=1$/numprocs=2/',
      '/etc/supervisor/conf.d/stackdeck-again.conf',
    ]);
    const synced = await panel.api('GET', `${path('svjobs')}?sync=true`);
    expect(synced.json().data[0]).toMatchObject({ name: 'again', drift: 'changed' });
    const rebuilt = await panel.api('GET', path('svjobs/rebuild'));
    expect(rebuilt.json()).toEqual({ rebuilt: 1, failed: 0, waiting: 0 });
    expect(
      (await sb.execOk(['cat', '/etc/supervisor/conf.d/stackdeck-again.conf'])).stdout,
    ).toContain('numprocs=1\n');
    // http.server logs each request on stderr, which the program file sends to its log.
    await until(async () => (await curl()).stdout === '200');
    await until(async () => {
      const log = await panel.api('GET', `${path('svjobs/logs')}?name=again`);
      return /"GET \/ HTTP\/1\.1" 200/.test(log.json().text ?? '');
    });
  });
});
