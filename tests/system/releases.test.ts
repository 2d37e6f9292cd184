import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { serveDownloads } from './harness/releaseArchives';

/**
 * release.fetch on a real server: archives served from a loopback HTTP server the sandbox
 * reaches (as it reaches the panel), fetched, verified and unpacked as a system user.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let base = '';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-sys-'));
const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

beforeAll(async () => {
  const src = path.join(dir, 'src');
  fs.mkdirSync(path.join(src, 'app'), { recursive: true });
  fs.writeFileSync(path.join(src, 'app', 'index.php'), '<?php echo "hi";\n');
  execFileSync('tar', ['-czf', path.join(dir, 'good.tar.gz'), '-C', src, 'app']);
  // A second release, never fetched whole (the cache keeps verified files by their hash).
  fs.writeFileSync(path.join(src, 'app', 'two.php'), '<?php echo 2;\n');
  execFileSync('tar', ['-czf', path.join(dir, 'good2.tar.gz'), '-C', src, 'app']);
  const bad = Buffer.from(fs.readFileSync(path.join(dir, 'good2.tar.gz')));
  bad.writeUInt8(bad.readUInt8(bad.length - 5) ^ 0xff, bad.length - 5);
  fs.writeFileSync(path.join(dir, 'changed.tar.gz'), bad);
  execFileSync('tar', [
    '-P',
    '-czf',
    path.join(dir, 'evil.tar.gz'),
    '-C',
    path.join(src, 'app'),
    '../app/index.php',
  ]);
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'releases', []));
  const user = await panel.api('POST', `sysusers/servers/${server.id}/users/${panel.uid}`, {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  // Only the panel's port reaches the host: the archives are served inside the sandbox.
  await sb.execOk(['mkdir', '-p', '/srv/dl']);
  for (const name of ['good.tar.gz', 'changed.tar.gz', 'evil.tar.gz'])
    await sb.execOk(['bash', '-c', `base64 -d > /srv/dl/${name}`], {
      input: fs.readFileSync(path.join(dir, name)).toString('base64'),
    });
  await serveDownloads(sb, 18765);
  base = 'http://127.0.0.1:18765';
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const fetchOp = (file: string, hash: string, dest: string) =>
  panel.t.app.agents.call(server.id, 'release.fetch', {
    url: `${base}/${file}`,
    sha256: hash,
    format: 'tar.gz',
    dest_user: 'alice',
    dest_dir: dest,
  });

describe('release.fetch on a sandbox server', () => {
  it('downloads, verifies and unpacks as the user', async () => {
    const done = await fetchOp(
      'good.tar.gz',
      sha(path.join(dir, 'good.tar.gz')),
      '/home/alice/site',
    );
    expect(done).toMatchObject({ path: '/home/alice/site', files: 1 });
    const owner = await sb.execOk(['stat', '-c', '%U', '/home/alice/site/app/index.php']);
    expect(owner.stdout.trim()).toBe('alice');
  }, 120_000);

  it('refuses an archive with one byte changed, extracting nothing', async () => {
    await expect(
      fetchOp('changed.tar.gz', sha(path.join(dir, 'good2.tar.gz')), '/home/alice/two'),
    ).rejects.toThrow(/SHA-256/);
    expect((await sb.exec(['test', '-e', '/home/alice/two'])).code).not.toBe(0);
    expect((await sb.execOk(['ls', '/var/cache/stackdeck/dl'])).stdout).not.toContain('.part');
  }, 120_000);

  it('refuses an archive with ../', async () => {
    await expect(
      fetchOp('evil.tar.gz', sha(path.join(dir, 'evil.tar.gz')), '/home/alice/three'),
    ).rejects.toThrow(/\.\./);
    expect((await sb.exec(['test', '-e', '/home/alice/three'])).code).not.toBe(0);
  }, 120_000);
});
