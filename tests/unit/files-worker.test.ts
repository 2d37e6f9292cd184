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
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const ask = (request: object) =>
  JSON.parse(
    execFileSync(process.execPath, ['-e', source], {
      input: JSON.stringify({ root: path.join(root, 'app'), ...request }),
      encoding: 'utf8',
    }),
  ) as { ok: boolean; value?: { data: { name: string; type: string }[] }; code?: string };

describe('the bundled file worker', () => {
  it('lists folders first, then files and links by name', () => {
    const answer = ask({ action: 'list', path: '/', page: 1, per_page: 10 });
    expect(answer.ok).toBe(true);
    expect(answer.value!.data.map((e) => [e.name, e.type])).toEqual([
      ['b', 'dir'],
      ['a.txt', 'file'],
      ['link', 'link'],
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
