import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { serveNodeRepository } from './harness/nodeRepository';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * The Node.js one-click app on a real server: the code cloned from a git repository the sandbox
 * serves itself (git's smart HTTP through git-http-backend, on loopback: the machine has no
 * internet), run by supervisor as the app's user on an allocated port, behind nginx; checked
 * with `curl` through nginx, `supervisorctl`, `ps` and `ss` inside the sandbox; then cloned to
 * another domain and user, both answering through nginx, each from its own port.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
let gitUrl = '';

interface Task {
  status: string;
  events: { event: string; code: number }[];
}

async function settled(taskId: number): Promise<Task> {
  for (let i = 0; i < 600; i++) {
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (JSON.parse(res.body) as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await sleep(250);
  }
  throw new Error('the install did not end');
}

const install = (name: string, domain: string, more: Record<string, unknown> = {}) =>
  panel.api('POST', at('nodejs'), {
    name,
    domains: [domain],
    sys_user: 'nodeuser',
    git_url: gitUrl,
    branch: 'main',
    env: { GREETING: 'hi there' },
    ...more,
  });

/** `curl` to nginx on the sandbox's loopback, as a browser of `domain` would. */
const curl = (domain: string) =>
  sb.exec(['curl', '-s', '-m', '5', '--resolve', `${domain}:80:127.0.0.1`, `http://${domain}/`]);

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(200);
  }
}

const listening = async () => (await sb.execOk(['ss', '-Hltn'])).stdout;
const programPid = async () =>
  Number((await sb.exec(['supervisorctl', 'pid', 'stackdeck-hello'])).stdout.trim());

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'nodejs', ['nginx', 'supervisor']));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'nodeuser',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  gitUrl = await serveNodeRepository(sb, 18_791);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('Node.js one-click app', () => {
  let webappId = 0;

  it('undoes everything when the app does not stay up', async () => {
    const res = await install('crashy', 'crashy.test', { start: 'crash.js' });
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('failed');
    expect(task.events.map((e) => e.event).join('\n')).toMatch(
      /Starting crash\.js under supervisor failed: The app did not start serving on port 3001: .*crashed on purpose/,
    );
    expect(task.events.at(-1)?.event).toBe('Everything the install made is removed again');
    expect(
      (await sb.exec(['test', '-e', '/etc/supervisor/conf.d/stackdeck-crashy.conf'])).code,
    ).not.toBe(0);
    expect((await sb.exec(['supervisorctl', 'status'])).stdout).not.toContain('crashy');
    expect((await sb.exec(['test', '-e', '/home/nodeuser/apps/crashy'])).code).not.toBe(0);
    expect(
      (await sb.exec(['test', '-e', '/etc/nginx/conf.d/stackdeck-crashy.conf'])).code,
    ).not.toBe(0);
    expect(await panel.t.app.db.selectFrom('node_ports').selectAll().execute()).toEqual([]);
  }, 180_000);

  it('installs from git: it answers through nginx, run by supervisor as the app user', async () => {
    const started = Date.now();
    const res = await install('hello', 'app.test');
    expect(res.statusCode, res.body).toBe(202);
    const answer = JSON.parse(res.body) as { task_id: number; webapp_id: number };
    webappId = answer.webapp_id;
    const task = await settled(answer.task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events).toContainEqual({ event: "Port 3001 is the app's", code: 2 });
    console.log(`Node.js install: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const page = await curl('app.test');
    expect(page.stdout).toMatch(/^hello from node, hi there, as nodeuser pid \d+$/m);

    const status = (await sb.execOk(['supervisorctl', 'status', 'stackdeck-hello'])).stdout;
    expect(status).toMatch(/^stackdeck-hello\s+RUNNING\s+pid \d+/);
    const pid = await programPid();
    expect((await sb.execOk(['ps', '-o', 'user=', '-p', String(pid)])).stdout.trim()).toBe(
      'nodeuser',
    );
    expect((await sb.execOk(['ps', '-o', 'args=', '-p', String(pid)])).stdout.trim()).toBe(
      '/usr/bin/node /home/nodeuser/apps/hello/current/server.js',
    );
    // The program is root's alone (its environment may hold secrets); node listens on loopback.
    const conf = '/etc/supervisor/conf.d/stackdeck-hello.conf';
    expect((await sb.execOk(['stat', '-c', '%U %a', conf])).stdout.trim()).toBe('root 600');
    const text = (await sb.execOk(['cat', conf])).stdout;
    expect(text).toContain(
      'environment=NODE_ENV="production",PORT="3001",HOME="/home/nodeuser",GREETING="hi there"',
    );
    expect(text).toContain('stopasgroup=true\nkillasgroup=true');
    expect(await listening()).toMatch(/127\.0\.0\.1:3001\s/);
    // The code is the user's, cloned shallow.
    const clone = await sb.execOk([
      'stat',
      '-c',
      '%U',
      '/home/nodeuser/apps/hello/current/server.js',
    ]);
    expect(clone.stdout.trim()).toBe('nodeuser');
    const depth = await sb.execOk([
      'runuser',
      '-u',
      'nodeuser',
      '--',
      'git',
      '-C',
      '/home/nodeuser/apps/hello/current',
      'rev-list',
      '--count',
      'HEAD',
    ]);
    expect(depth.stdout.trim()).toBe('1');
  }, 240_000);

  it('comes back by itself when its process is killed', async () => {
    const before = await programPid();
    await sb.execOk(['kill', '-9', String(before)]);
    await until(async () => {
      const page = await curl('app.test');
      return page.code === 0 && page.stdout.startsWith('hello from node');
    });
    const after = await programPid();
    expect(after).not.toBe(before);
    expect((await curl('app.test')).stdout).toContain(`pid ${after}`);
    expect((await sb.execOk(['ps', '-o', 'user=', '-p', String(after)])).stdout.trim()).toBe(
      'nodeuser',
    );
  }, 60_000);

  it('deleting the app removes its program and frees its port', async () => {
    const res = await panel.api(
      'DELETE',
      `webstacks/${webappId}/servers/${server.id}/users/${panel.uid}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await sb.exec(['test', '-e', '/etc/supervisor/conf.d/stackdeck-hello.conf'])).code,
    ).not.toBe(0);
    expect((await sb.exec(['supervisorctl', 'status'])).stdout).not.toContain('stackdeck-hello');
    expect(await listening()).not.toMatch(/:3001\s/);
    expect((await sb.exec(['pgrep', '-u', 'nodeuser', 'node'])).code).not.toBe(0);
    expect(await panel.t.app.db.selectFrom('node_ports').selectAll().execute()).toEqual([]);
    // The next app gets the port again.
    const again = await install('hello2', 'again.test');
    const task = await settled((JSON.parse(again.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events).toContainEqual({ event: "Port 3001 is the app's", code: 2 });
    expect((await curl('again.test')).stdout).toMatch(/^hello from node/);
  }, 180_000);

  it('clones the app to a new domain and user: each answers through nginx from its own port', async () => {
    const user = await panel.api('POST', at('sysusers'), {
      user_name: 'cloneuser',
      password: 'a long system password 2',
    });
    expect(user.statusCode, user.body).toBe(201);
    const source = await panel.t.app.db
      .selectFrom('webapps')
      .select('id')
      .where('name', '=', 'hello2')
      .executeTakeFirstOrThrow();
    const started = Date.now();
    const res = await panel.api('POST', at(`clone-webapp/webstacks/${source.id}`), {
      name: 'hello-copy',
      domains: ['copy.test'],
      sys_user: 'cloneuser',
    });
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events).toContainEqual({ event: "Port 3002 is the copy's", code: 9 });
    console.log(`Node.js clone: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Both answer through nginx, each its own node as its own user.
    const original = (await curl('again.test')).stdout;
    const copy = (await curl('copy.test')).stdout;
    expect(original).toMatch(/^hello from node, hi there, as nodeuser pid \d+$/m);
    expect(copy).toMatch(/^hello from node, hi there, as cloneuser pid \d+$/m);
    const pid = Number((await sb.execOk(['supervisorctl', 'pid', 'stackdeck-hello-copy'])).stdout);
    expect(copy).toContain(`pid ${pid}`);
    expect(original).not.toContain(`pid ${pid}`);
    expect((await sb.execOk(['ps', '-o', 'args=', '-p', String(pid)])).stdout.trim()).toBe(
      '/usr/bin/node /home/cloneuser/apps/hello-copy/current/server.js',
    );
    // Its own program on its own port, behind its own vhost; the source's stays on 3001.
    const conf = (await sb.execOk(['cat', '/etc/supervisor/conf.d/stackdeck-hello-copy.conf']))
      .stdout;
    expect(conf).toContain('user=cloneuser');
    expect(conf).toContain('PORT="3002",HOME="/home/cloneuser",GREETING="hi there"');
    const ss = await listening();
    expect(ss).toMatch(/127\.0\.0\.1:3001\s/);
    expect(ss).toMatch(/127\.0\.0\.1:3002\s/);
    const vhost = (await sb.execOk(['cat', '/etc/nginx/conf.d/stackdeck-hello-copy.conf'])).stdout;
    expect(vhost).toMatch(/proxy_pass http:\/\/127\.0\.0\.1:3002/);
    expect(vhost).toContain('copy.test');
    const owner = await sb.execOk([
      'stat',
      '-c',
      '%U',
      '/home/cloneuser/apps/hello-copy/current/server.js',
    ]);
    expect(owner.stdout.trim()).toBe('cloneuser');
  }, 240_000);
});

const SERVER_JS = `const http = require('node:http');
const os = require('node:os');
http
  .createServer((req, res) => {
    res.end('hello from node, ' + process.env.GREETING + ', as ' + os.userInfo().username + ' pid ' + process.pid + '\\n');
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

/** A .tar.gz made here with GNU tar, as base64: its files under one folder, and any links. */
function tarball(files: Record<string, string>, links: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-up-'));
  try {
    fs.mkdirSync(path.join(dir, 'hello-up'));
    for (const [name, text] of Object.entries(files))
      fs.writeFileSync(path.join(dir, 'hello-up', name), text);
    for (const [name, target] of Object.entries(links))
      fs.symlinkSync(target, path.join(dir, 'hello-up', name));
    execFileSync('tar', ['-czf', path.join(dir, 'app.tar.gz'), '-C', dir, 'hello-up']);
    return fs.readFileSync(path.join(dir, 'app.tar.gz')).toString('base64');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const upload = (name: string, domain: string, data: string) =>
  panel.api('POST', at('nodejs'), {
    name,
    domains: [domain],
    sys_user: 'nodeuser',
    env: { GREETING: 'from a tarball' },
    archive: { file_name: 'hello-up.tar.gz', data },
  });

describe('Node.js from an uploaded archive, and its rebuild', () => {
  it('unpacks an uploaded tar.gz as the app user; it answers through nginx', async () => {
    const res = await upload('up', 'up.test', tarball({ 'server.js': SERVER_JS }));
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events.map((e) => e.event)).toContain('Unpacking hello-up.tar.gz (0.0 MB)');
    expect((await curl('up.test')).stdout).toMatch(
      /^hello from node, from a tarball, as nodeuser pid \d+$/m,
    );
    // The archive's one folder is the code, the user's; the received file is gone.
    const owner = await sb.execOk(['stat', '-c', '%U', '/home/nodeuser/apps/up/current/server.js']);
    expect(owner.stdout.trim()).toBe('nodeuser');
    expect((await sb.execOk(['ls', '-A', '/var/cache/stackdeck/uploads'])).stdout.trim()).toBe('');
  }, 180_000);

  it('a rebuild writes the deleted program again and supervisor runs it', async () => {
    const conf = '/etc/supervisor/conf.d/stackdeck-up.conf';
    await sb.execOk(['rm', conf]);
    await sb.execOk(['supervisorctl', 'update']);
    await until(async () => !(await curl('up.test')).stdout.startsWith('hello from node'));
    expect((await sb.exec(['supervisorctl', 'status'])).stdout).not.toContain('stackdeck-up');

    const row = await panel.t.app.db
      .selectFrom('webapps')
      .select('id')
      .where('name', '=', 'up')
      .executeTakeFirstOrThrow();
    const res = await panel.api(
      'PATCH',
      `webstacks/rebuild/${row.id}/servers/${server.id}/users/${panel.uid}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await sb.execOk(['stat', '-c', '%U %a', conf])).stdout.trim()).toBe('root 600');
    expect((await sb.execOk(['cat', conf])).stdout).toContain('GREETING="from a tarball"');
    expect((await curl('up.test')).stdout).toMatch(
      /^hello from node, from a tarball, as nodeuser/m,
    );
  }, 120_000);

  it('refuses an archive holding a link, and takes everything back', async () => {
    const data = tarball({ 'server.js': SERVER_JS }, { 'shadow.js': '/etc/shadow' });
    const res = await upload('linked', 'linked.test', data);
    expect(res.statusCode, res.body).toBe(202);
    const task = await settled((JSON.parse(res.body) as { task_id: number }).task_id);
    expect(task.status).toBe('failed');
    expect(task.events.map((e) => e.event).join('\n')).toMatch(
      /Unpacking hello-up\.tar\.gz \(0\.0 MB\) failed: Refused: A link in the archive: hello-up\/shadow\.js/,
    );
    expect((await sb.exec(['test', '-e', '/home/nodeuser/apps/linked'])).code).not.toBe(0);
    expect((await sb.execOk(['ls', '-A', '/var/cache/stackdeck/uploads'])).stdout.trim()).toBe('');
  }, 120_000);
});
