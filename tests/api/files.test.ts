import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { OpErrorCode } from '../../resources/agent/protocol';
import { workerSource } from '../../features/files/agentWorker';
import { PIECE_BYTES } from '../../features/files/names';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The file manager's calls (spec section 7 "File manager"). The fake agent runs the real worker
 * (features/files/agentWorker.ts, as this test's own user) on a temporary folder standing for
 * the app's, so what a client sees is what the worker does: paging, the etag check, confinement.
 * Acting as the app's user, archives and nginx are proved in tests/system/files.test.ts.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
let shop: number;
let root: string;
let home: string;

function worker(request: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', workerSource], (error, stdout) => {
      if (error && !stdout) return reject(error);
      const answer = JSON.parse(stdout) as {
        ok: boolean;
        value?: unknown;
        code?: OpErrorCode;
        message?: string;
        field?: string;
      };
      if (answer.ok) resolve(answer.value);
      else reject(new OpError(answer.code ?? 'failed', answer.message ?? '', answer.field));
    });
    child.stdin!.end(JSON.stringify({ root, ...request }));
  });
}
type A = Record<string, unknown>;
const strip = ({ user: _u, app: _a, ...rest }: A) => rest;

const fsPath = (p = 'fs') => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });
const q = (o: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)]))}`;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'files-api-'));
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'files-home-'));
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'files.list': (a: A) => worker({ action: 'list', ...strip(a) }),
    'files.read': (a: A) => worker({ action: 'read', ...strip(a), piece: PIECE_BYTES }),
    'files.write': (a: A) => worker({ action: 'write', ...strip(a) }),
    'files.mkdir': (a: A) => worker({ action: 'mkdir', ...strip(a) }),
    'files.delete': (a: A) =>
      worker({ action: 'delete', ...strip(a), home, app: a.app, stamp: 'stamp' }),
    'files.process': (a: A) => worker({ ...strip(a) }),
    'files.dirs': () => worker({ action: 'dirs' }),
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  const res = await call('POST', fsPath('webstacks'), {
    name: 'shop',
    domains: ['shop.example'],
    sys_user: 'alice',
  });
  expect(res.statusCode, res.body).toBe(201);
  shop = res.json().id as number;
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(home, { recursive: true, force: true });
});

describe('file manager', () => {
  it('creates a folder and a file, and lists them folders first, a page at a time', async () => {
    const dir = await call('POST', `${fsPath()}?wsid=${shop}`, {
      dir_path: '/',
      name: 'public',
      is_dir: true,
    });
    expect(dir.statusCode, dir.body).toBe(201);
    expect(dir.json()).toMatchObject({
      path: '/public',
      dir_path: '/',
      name: 'public',
      type: 'dir',
    });
    for (const name of ['b.txt', 'a.txt', 'c.txt']) {
      const made = await call('POST', `${fsPath()}?wsid=${shop}`, {
        dir_path: '/',
        name,
        file_content: Buffer.from(`hello ${name}`).toString('base64'),
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    const page = await call('GET', fsPath() + q({ wsid: shop, path: '/', page: 1, per_page: 2 }));
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json();
    expect(body).toMatchObject({ path: '/', total: 4, page: 1, per_page: 2 });
    expect(body.data.map((e: { name: string }) => e.name)).toEqual(['public', 'a.txt']);
    const next = await call('GET', fsPath() + q({ wsid: shop, page: 2, per_page: 2 }));
    expect(next.json().data.map((e: { name: string }) => e.name)).toEqual(['b.txt', 'c.txt']);
    expect(agent.calls.at(-1)).toMatchObject({
      name: 'files.list',
      args: { user: 'alice', app: 'shop', path: '/', page: 2, per_page: 2 },
    });
  });

  it('opens a file as base64 with its etag, saves over it, and refuses a stale save (409)', async () => {
    const open = await call('GET', fsPath() + q({ wsid: shop, path: '/a.txt', is_dir: 'false' }));
    expect(open.statusCode, open.body).toBe(200);
    const file = open.json();
    expect(Buffer.from(file.file_content, 'base64').toString()).toBe('hello a.txt');
    expect(file).toMatchObject({ path: '/a.txt', dir_path: '/', name: 'a.txt', binary: false });
    const save = (content: string, etag: string) =>
      call('POST', `${fsPath()}?wsid=${shop}`, {
        dir_path: '/',
        name: 'a.txt',
        file_content: Buffer.from(content).toString('base64'),
        etag,
      });
    const saved = await save('second version', file.etag);
    expect(saved.statusCode, saved.body).toBe(201);
    expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('second version');
    const stale = await save('lost', file.etag);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/changed on the server since it was opened/);
    expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('second version');
  });

  it('refuses to create over an existing name (409), leaving it as it was', async () => {
    const again = await call('POST', `${fsPath()}?wsid=${shop}`, { dir_path: '/', name: 'b.txt' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/b\.txt is there already/);
  });

  it('uploads a file larger than one piece in pieces, and downloads it whole', async () => {
    const big = Buffer.alloc(PIECE_BYTES * 2 + 123, 7);
    const up = await call('POST', `${fsPath()}?wsid=${shop}`, {
      dir_path: '/public',
      name: 'big.bin',
      file_content: big.toString('base64'),
    });
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json()).toMatchObject({ size: big.length });
    const pieces = agent.calls.filter((c) => c.name === 'files.write').slice(-3);
    expect(pieces.map((c) => (c.args as { how: string }).how)).toEqual(['new', 'append', 'append']);
    const down = await call(
      'GET',
      fsPath() + q({ wsid: shop, path: '/public/big.bin', is_dir: 'false', download: 'true' }),
    );
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-disposition']).toMatch(/attachment/);
    expect(Buffer.from(down.rawPayload).equals(big)).toBe(true);
  });

  it('refuses paths that climb out, bad modes and setuid, before the server is asked', async () => {
    const before = agent.calls.length;
    const bad = [
      call('GET', fsPath() + q({ wsid: shop, path: '/../etc' })),
      call('GET', fsPath() + q({ wsid: shop, path: 'a\u0000b' })),
      call('GET', fsPath() + q({ wsid: shop, per_page: 501 })),
      call('POST', `${fsPath()}?wsid=${shop}`, { dir_path: '/', name: '../x' }),
      call('POST', `${fsPath()}?wsid=${shop}`, { dir_path: '/', name: 'x', file_content: '***' }),
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=permissions`, {
        paths: ['/a.txt'],
        mode: '4755',
      }),
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=permissions`, {
        paths: ['/a.txt'],
        mode: '999',
      }),
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=chown`, { paths: ['/a.txt'] }),
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=copy`, { paths: ['/a.txt'] }),
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=rename`, { paths: ['/a.txt'] }),
      call('DELETE', fsPath() + q({ wsid: shop, path: '/' })),
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=compress`, {
        paths: ['/a.txt'],
        name: 'a.zip',
        format: 'tar.gz',
      }),
    ];
    for (const res of await Promise.all(bad)) expect(res.statusCode, res.body).toBe(400);
    const mode = await call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=permissions`, {
      paths: ['/a.txt'],
      mode: '6755',
    });
    expect(mode.json().errors).toMatchObject({ mode: 'No setuid or setgid bits' });
    const copy = await call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=copy`, {
      paths: ['/a.txt'],
    });
    expect(copy.json().errors).toMatchObject({ destination: 'Choose the folder they go into' });
    expect(agent.calls.length).toBe(before);
  });

  it('does not follow a link that leads out of the app', async () => {
    await fs.symlink('/etc', path.join(root, 'etc'));
    await fs.symlink('/etc/hostname', path.join(root, 'host'));
    const list = await call('GET', fsPath() + q({ wsid: shop, path: '/etc' }));
    expect(list.statusCode).toBe(400);
    expect(list.json().errors).toMatchObject({ path: '/etc leads outside the app' });
    const read = await call('GET', fsPath() + q({ wsid: shop, path: '/host', is_dir: 'false' }));
    expect(read.statusCode).toBe(422);
    const listed = await call('GET', fsPath() + q({ wsid: shop }));
    const link = listed.json().data.find((e: { name: string }) => e.name === 'host');
    expect(link).toMatchObject({ type: 'link', target: '/etc/hostname' });
  });

  it('copies, moves, renames and changes permissions', async () => {
    const act = (action: string, body: object) =>
      call('POST', `${fsPath('fs/process')}?wsid=${shop}&action=${action}`, body);
    const copy = await act('copy', { paths: ['/a.txt', '/b.txt'], destination: '/public' });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json()).toEqual({ done: ['/public/a.txt', '/public/b.txt'] });
    expect((await act('move', { paths: ['/c.txt'], destination: '/public' })).json()).toEqual({
      done: ['/public/c.txt'],
    });
    expect((await act('rename', { paths: ['/b.txt'], name: 'd.txt' })).json()).toEqual({
      done: ['/d.txt'],
    });
    expect((await act('permissions', { paths: ['/d.txt'], mode: '600' })).statusCode).toBe(200);
    expect((await fs.stat(path.join(root, 'd.txt'))).mode & 0o777).toBe(0o600);
    const into = await act('move', { paths: ['/public'], destination: '/public' });
    expect(into.statusCode).toBe(400);
    const dirs = await call(
      'GET',
      `/api/v1/wsdirs/webstacks/${shop}/servers/${agent.server.id}/users/${owner.id}`,
    );
    expect(dirs.statusCode, dirs.body).toBe(200);
    expect(dirs.json().dirs).toContain('/public');
  });

  it("moves a deleted file to the user's trash, or deletes it for good", async () => {
    const trashed = await call('DELETE', fsPath() + q({ wsid: shop, path: '/d.txt' }));
    expect(trashed.statusCode, trashed.body).toBe(200);
    expect(trashed.json().trash).toBe(path.join(home, '.trash', 'stamp', 'shop', 'd.txt'));
    expect(await fs.readFile(trashed.json().trash as string, 'utf8')).toBe('hello b.txt');
    const gone = await call('DELETE', fsPath() + q({ wsid: shop, path: '/a.txt', trash: 'false' }));
    expect(gone.json()).toEqual({ path: '/a.txt', trash: null });
    await expect(fs.lstat(path.join(root, 'a.txt'))).rejects.toThrow();
    const missing = await call('DELETE', fsPath() + q({ wsid: shop, path: '/nothing' }));
    expect(missing.statusCode).toBe(404);
  });
});
