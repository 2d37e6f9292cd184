import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The file worker's text as the agent's bundle carries it (esbuild, minified, ES module, as
 * scripts/build-agent.mjs builds it): it must still run on its own under `node -e` — a name the
 * bundler renamed outside the function would break every file call on the servers.
 */
let source = '';
let root = '';

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'files-worker-'));
  const entry = path.join(root, 'entry.ts');
  fs.writeFileSync(
    entry,
    `import { workerSource } from ${JSON.stringify(path.resolve('features/files/agentWorker.ts'))};\nprocess.stdout.write(workerSource);\n`,
  );
  const out = path.join(root, 'entry.mjs');
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    minify: true,
    logLevel: 'silent',
  });
  source = execFileSync(process.execPath, [out], { encoding: 'utf8' });
  fs.mkdirSync(path.join(root, 'app/b'), { recursive: true });
  fs.writeFileSync(path.join(root, 'app/a.txt'), 'hello');
  fs.symlinkSync('/etc/hostname', path.join(root, 'app/link'));
  // A folder beside the app, and a link in the app to it: the worker must not step through.
  fs.mkdirSync(path.join(root, 'outside'));
  fs.writeFileSync(path.join(root, 'outside/secret.txt'), 'not yours');
  fs.symlinkSync(path.join(root, 'outside'), path.join(root, 'app/out'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const ask = (request: object) =>
  JSON.parse(
    execFileSync(process.execPath, ['-e', source], {
      input: JSON.stringify({ root: path.join(root, 'app'), ...request }),
      encoding: 'utf8',
    }),
  ) as { ok: boolean; value?: { data: { name: string; type: string }[] }; code?: string };

const outside = () => fs.readdirSync(path.join(root, 'outside')).sort();

describe('the bundled file worker', () => {
  it('lists folders first, then files and links by name', () => {
    const answer = ask({ action: 'list', path: '/', page: 1, per_page: 10 });
    expect(answer.ok).toBe(true);
    expect(answer.value!.data.map((e) => [e.name, e.type])).toEqual([
      ['b', 'dir'],
      ['a.txt', 'file'],
      ['link', 'link'],
      ['out', 'link'],
    ]);
  });

  it('never reads through a link, and refuses a path out of the folder', () => {
    expect(ask({ action: 'read', path: '/link', offset: 0, piece: 10 })).toMatchObject({
      ok: false,
      code: 'refused',
    });
    expect(ask({ action: 'list', path: '/..', page: 1, per_page: 10 })).toMatchObject({
      ok: false,
    });
  });
});

// Each call starts a node process: on a busy machine that takes a second or more.
describe('a linked folder that leads out of the app', { timeout: 60_000 }, () => {
  const refused = { ok: false, code: 'refused' };

  it('is neither listed nor read through', () => {
    expect(ask({ action: 'list', path: '/out', page: 1, per_page: 10 })).toMatchObject(refused);
    const read = ask({ action: 'read', path: '/out/secret.txt', offset: 0, piece: 100 });
    expect(read).toMatchObject(refused);
    expect(JSON.stringify(read)).not.toContain('not yours');
  });

  it('is not written, created in, copied into or changed through', () => {
    const data = Buffer.from('planted').toString('base64');
    expect(ask({ action: 'write', path: '/out/new.txt', how: 'new', data })).toMatchObject(refused);
    expect(ask({ action: 'mkdir', path: '/out/made' })).toMatchObject(refused);
    expect(ask({ action: 'copy', paths: ['/a.txt'], destination: '/out' })).toMatchObject(refused);
    expect(ask({ action: 'permissions', paths: ['/out/secret.txt'], mode: '0666' })).toMatchObject(
      refused,
    );
    expect(outside()).toEqual(['secret.txt']);
    expect(fs.statSync(path.join(root, 'outside/secret.txt')).mode & 0o777).not.toBe(0o666);
    expect(fs.readFileSync(path.join(root, 'outside/secret.txt'), 'utf8')).toBe('not yours');
  });
});
