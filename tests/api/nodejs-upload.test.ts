import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../features/webapps/resource';
import {
  ARCHIVE_CHUNK_BASE64,
  MAX_ARCHIVE_BASE64,
  MAX_ARCHIVE_BYTES,
} from '../../features/nodejs/names';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The Node.js installer with an uploaded archive, with a fake agent that keeps what it
 * receives: the archive reaches the agent in pieces, whole (its SHA-256 and size say so), the
 * body's limits answer in words, and a rebuild writes the app's supervisor program again from
 * what the panel kept. tests/system/nodejs.test.ts unpacks and runs one for real.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
const received = new Map<string, Buffer>();
const programs = new Map<string, { entry: string; port: number; env: Record<string, string> }>();

const fakeOps = () => ({
  'webapp.apply': (a: AppSpec) => ({ path: `/home/${a.user}/apps/${a.name}` }),
  'webapp.remove': () => ({ removed: true }),
  'node.ports': () => ({ ports: [22, 80] }),
  'node.receive': (a: { app: string; offset: number; data: string }) => {
    const had = a.offset === 0 ? Buffer.alloc(0) : received.get(a.app)!;
    expect(had.length).toBe(a.offset);
    received.set(a.app, Buffer.concat([had, Buffer.from(a.data, 'base64')]));
    return { bytes: received.get(a.app)!.length };
  },
  'node.unpack': (a: { app: string; user: string; bytes: number; sha256: string }) => {
    const got = received.get(a.app)!;
    expect(got.length).toBe(a.bytes);
    expect(createHash('sha256').update(got).digest('hex')).toBe(a.sha256);
    return { path: `/home/${a.user}/apps/${a.app}/current`, files: 1, npm: false };
  },
  'node.start': (a: { app: string; entry: string; port: number; env: Record<string, string> }) => {
    programs.set(a.app, { entry: a.entry, port: a.port, env: a.env });
    return { state: 'RUNNING', pid: 4242 };
  },
  'node.remove': (a: { app: string }) => ({ removed: programs.delete(a.app) }),
});

const at = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

const body = (name: string, more: Record<string, unknown>) => ({
  name,
  domains: [`${name}.example.com`],
  sys_user: 'alice',
  ...more,
});

interface Task {
  status: string;
  events: { event: string; code: number }[];
}
async function settled(id: number): Promise<Task> {
  for (let i = 0; i < 500; i++) {
    const res = await call('GET', `/api/v1/clone-events/users/${owner.id}?id=${id}`);
    const task = (res.json() as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the install did not end');
}

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeOps(), 'node-up');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('Node.js from an uploaded archive', () => {
  let webappId = 0;
  // 13 MB: three pieces of at most 6 MiB each.
  const archive = randomBytes(13 * 1024 * 1024);

  it('sends the archive in pieces, whole, then unpacks, starts and proxies it', async () => {
    agent.calls.length = 0;
    const res = await call(
      'POST',
      at('nodejs'),
      body('up', {
        start: 'app.js',
        env: { TOKEN: 'very secret' },
        archive: { file_name: 'app.tar.gz', data: archive.toString('base64') },
      }),
    );
    expect(res.statusCode, res.body.slice(0, 500)).toBe(202);
    const answer = res.json() as { task_id: number; webapp_id: number };
    webappId = answer.webapp_id;
    const task = await settled(answer.task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');
    expect(task.events.map((e) => e.event)).toEqual([
      'Creating the web app',
      'Web app up is made',
      'Choosing a port',
      "Port 3000 is the app's",
      'Unpacking app.tar.gz (13.0 MB)',
      'Starting app.js under supervisor',
      'Pointing nginx at the app',
      'The Node.js app answers at http://up.example.com',
    ]);
    const names = agent.calls.map((c) => c.name);
    expect(names).toEqual([
      'webapp.apply',
      'node.ports',
      'node.receive',
      'node.receive',
      'node.receive',
      'node.unpack',
      'node.start',
      'webapp.apply',
    ]);
    for (const c of agent.calls.filter((x) => x.name === 'node.receive'))
      expect((c.args as { data: string }).data.length).toBeLessThanOrEqual(ARCHIVE_CHUNK_BASE64);
    expect(received.get('up')!.equals(archive)).toBe(true);
    expect(agent.calls[5]!.args).toMatchObject({ user: 'alice', app: 'up', format: 'tgz' });
    // The program's record: the environment sealed, never in the clear.
    const row = await live.t.app.db
      .selectFrom('node_apps')
      .selectAll()
      .where('webapp_id', '=', webappId)
      .executeTakeFirstOrThrow();
    expect(row.entry).toBe('app.js');
    expect(row.env).not.toContain('very secret');
  });

  it('a zip is unpacked as a zip', async () => {
    agent.calls.length = 0;
    const res = await call(
      'POST',
      at('nodejs'),
      body('zipped', {
        archive: { file_name: 'App.ZIP', data: 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==' },
      }),
    );
    expect(res.statusCode, res.body).toBe(202);
    expect((await settled(res.json().task_id)).status).toBe('completed');
    expect(agent.calls.find((c) => c.name === 'node.unpack')!.args).toMatchObject({
      format: 'zip',
      bytes: 22,
    });
  });

  it('a rebuild writes the program again from the panel: port, entry and environment', async () => {
    programs.delete('up');
    agent.calls.length = 0;
    const res = await call('PATCH', at(`webstacks/rebuild/${webappId}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(agent.calls.map((c) => c.name)).toEqual(['webapp.apply', 'node.start']);
    expect(programs.get('up')).toEqual({
      entry: 'app.js',
      port: 3000,
      env: { TOKEN: 'very secret' },
    });
  });

  it('an archive over 100 MB is refused at its field, a body larger still with 413', async () => {
    const before = (await call('GET', at('webstacks'))).json().total;
    const over = 'A'.repeat(MAX_ARCHIVE_BASE64 + 4);
    const big = await call(
      'POST',
      at('nodejs'),
      body('big', { archive: { file_name: 'big.tar.gz', data: over } }),
    );
    expect(big.statusCode).toBe(400);
    expect(big.json().errors['archive.data']).toBe(
      `The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 ** 2} MB`,
    );
    const huge = await call(
      'POST',
      at('nodejs'),
      body('huge', {
        archive: { file_name: 'huge.tar.gz', data: `${over}${'A'.repeat(2 << 20)}` },
      }),
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: 'Payload Too Large' });
    expect((await call('GET', at('webstacks'))).json().total).toBe(before);
  }, 60_000);
});
