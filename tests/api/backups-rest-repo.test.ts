import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryCredential } from '../../features/backups/serverRepoAuth';
import { type TestApp, buildTestApp } from './helpers';

/**
 * The panel's own backup storage against the real restic CLI (0.14, Debian's): restic's REST
 * protocol at /restic/{repo}/, append-only, with each repository's own Basic credential.
 */
let t: TestApp;
let base: string;
let repo: RepositoryCredential;
let work: string;
const PASSWORD = 'correct horse battery staple';

/**
 * restic with the repository and its password in the child's environment, never in argv; run
 * in the site's folder, so `backup .` stores the site's files at the snapshot's root.
 */
function restic(
  args: string[],
  options: { url?: string; password?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const url = options.url ?? `rest:http://${repo.uuid}:${repo.secret}@${base}/restic/${repo.uuid}/`;
  return new Promise((resolve, reject) => {
    const child = spawn('restic', ['--no-cache', ...args], {
      cwd: source,
      env: {
        ...process.env,
        RESTIC_REPOSITORY: url,
        RESTIC_PASSWORD: options.password ?? PASSWORD,
        HOME: work,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A raw request: paths go out as written (fetch would normalize `..`). */
function raw(
  method: string,
  urlPath: string,
  options: { body?: Buffer; auth?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  const [host, port] = base.split(':') as [string, string];
  const auth = options.auth ?? `${repo.uuid}:${repo.secret}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host,
        port: Number(port),
        method,
        path: urlPath,
        headers: {
          authorization: `Basic ${Buffer.from(auth).toString('base64')}`,
          'content-type': 'application/octet-stream',
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Every file's size under a directory. */
function treeSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? treeSize(full) : fs.statSync(full).size;
  }
  return total;
}

/** Every file under a directory, relative, with its content. */
function files(dir: string, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(found, files(path.join(dir, entry.name), rel));
    else found[rel] = fs.readFileSync(path.join(dir, entry.name)).toString('base64');
  }
  return found;
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let source: string;
let repoDir: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-restic-'));
  source = path.join(work, 'site');
  fs.mkdirSync(path.join(source, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(source, 'index.html'), '<h1>hello</h1>\n');
  // Incompressible and above the panel's 1 MiB body limit: packs must stream through.
  fs.writeFileSync(path.join(source, 'sub', 'random.bin'), randomBytes(3 * 1024 * 1024));
  fs.writeFileSync(path.join(source, 'sub', 'note.txt'), 'a note');
  repo = await t.app.services.backupRepositories.create(null);
  repoDir = t.app.services.backupRepositories.localPath(repo.uuid);
});

afterAll(async () => {
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('restic against the panel storage', () => {
  it('initializes, backs up, lists, restores the same files, and checks', async () => {
    const init = await restic(['init', '--repository-version', '2']);
    expect(init.stderr + init.stdout).toMatch(/created restic repository/);
    expect(init.code).toBe(0);
    expect(fs.existsSync(path.join(repoDir, 'config'))).toBe(true);

    const backup = await restic(['backup', '--json', '--host', 'server-1', '.']);
    expect(backup.code, backup.stderr).toBe(0);
    // A pack larger than the API's 1 MiB body limit came through, streamed.
    const packs = await t.app.services.backupRepositories.store.list(repo.uuid, 'data');
    expect(Math.max(...packs!.map((p) => p.size))).toBeGreaterThan(1024 * 1024);

    const snapshots = await restic(['snapshots', '--json']);
    expect(snapshots.code, snapshots.stderr).toBe(0);
    const listed = JSON.parse(snapshots.stdout) as { hostname: string }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]!.hostname).toBe('server-1');

    const target = path.join(work, 'restored');
    const restore = await restic(['restore', 'latest', '--target', target]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(files(target)).toEqual(files(source));

    const check = await restic(['check', '--read-data']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/no errors were found/);
  }, 120_000);

  it('is append-only: forget fails on the snapshot, backups go on, locks are removed', async () => {
    fs.writeFileSync(path.join(source, 'index.html'), '<h1>changed</h1>\n');
    const second = await restic(['backup', '--host', 'server-1', '.']);
    expect(second.code, second.stderr).toBe(0);

    const forget = await restic(['forget', '--keep-last', '1']);
    expect(forget.code).not.toBe(0);
    expect(forget.stderr).toMatch(/403|Forbidden|not removed/i);
    const after = await restic(['snapshots', '--json']);
    expect(JSON.parse(after.stdout)).toHaveLength(2);

    const third = await restic(['backup', '--host', 'server-1', '.']);
    expect(third.code, third.stderr).toBe(0);
    expect(fs.readdirSync(path.join(repoDir, 'locks'))).toEqual([]);

    // What restic did, over HTTP directly.
    const [snapshot] = fs.readdirSync(path.join(repoDir, 'snapshots'));
    const remove = await raw('DELETE', `/restic/${repo.uuid}/snapshots/${snapshot}`);
    expect(remove.status).toBe(403);
    expect(fs.existsSync(path.join(repoDir, 'snapshots', snapshot!))).toBe(true);
    expect((await raw('DELETE', `/restic/${repo.uuid}/config`)).status).toBe(403);
  }, 180_000);

  it('lets the panel forget and prune on the files themselves, which restic then reads', async () => {
    const local = await restic(['forget', '--keep-last', '1', '--prune'], { url: repoDir });
    expect(local.code, local.stderr).toBe(0);
    const listed = await restic(['snapshots', '--json']);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
    const check = await restic(['check']);
    expect(check.code, check.stderr).toBe(0);
  }, 120_000);

  it('refuses a wrong secret, another repository name, and no credential (401)', async () => {
    const wrong = `rest:http://${repo.uuid}:not-the-secret@${base}/restic/${repo.uuid}/`;
    const failed = await restic(['snapshots'], { url: wrong });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/401|Unauthorized/i);

    const other = await t.app.services.backupRepositories.create(null);
    const crossed = await raw('GET', `/restic/${other.uuid}/config`);
    expect(crossed.status).toBe(401);
    expect(crossed.headers['www-authenticate']).toMatch(/^Basic/);
    const none = await raw('GET', `/restic/${repo.uuid}/config`, { auth: '' });
    expect(none.status).toBe(401);
    expect((await raw('GET', `/restic/${repo.uuid}/config`)).status).toBe(200);
  });

  it('lists v1 names or v2 names and sizes, and answers a Range with 206', async () => {
    const v1 = await raw('GET', `/restic/${repo.uuid}/keys/`);
    expect(v1.headers['content-type']).toMatch(/vnd\.x\.restic\.rest\.v1/);
    const names = JSON.parse(v1.body.toString()) as string[];
    expect(names).toHaveLength(1);
    const v2 = await raw('GET', `/restic/${repo.uuid}/keys/`, {
      headers: { accept: 'application/vnd.x.restic.rest.v2' },
    });
    const key = path.join(repoDir, 'keys', names[0]!);
    expect(JSON.parse(v2.body.toString())).toEqual([
      { name: names[0], size: fs.statSync(key).size },
    ]);

    const whole = fs.readFileSync(key);
    const head = await raw('HEAD', `/restic/${repo.uuid}/keys/${names[0]}`);
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(whole.length);
    const part = await raw('GET', `/restic/${repo.uuid}/keys/${names[0]}`, {
      headers: { range: 'bytes=10-19' },
    });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${whole.length}`);
    expect(part.body).toEqual(whole.subarray(10, 20));
    const beyond = await raw('GET', `/restic/${repo.uuid}/keys/${names[0]}`, {
      headers: { range: `bytes=${whole.length}-` },
    });
    expect(beyond.status).toBe(416);
    const missing = await raw('HEAD', `/restic/${repo.uuid}/keys/${'0'.repeat(64)}`);
    expect(missing.status).toBe(404);
  });

  it('refuses bad names, traversal, a wrong hash and an overwrite, writing nothing', async () => {
    const before = files(t.config.dataDir);
    const evil = `stackdeck-evil-${repo.uuid}`;
    const body = Buffer.from('evil');
    const attempts = [
      `/restic/${repo.uuid}/data/../../../${evil}`,
      `/restic/${repo.uuid}/data/..%2F..%2F..%2F${evil}`,
      `/restic/${repo.uuid}/data/${'A'.repeat(64)}`,
      `/restic/${repo.uuid}/data/${sha(body).slice(1)}`,
      `/restic/${repo.uuid}/other/${sha(body)}`,
      `/restic/${repo.uuid}/../${evil}`,
      `/restic/..%2F${evil}/config`,
    ];
    for (const url of attempts) {
      const res = await raw('POST', url, { body });
      expect([400, 401, 404], url).toContain(res.status);
    }
    // The right shape, the wrong content: restic names an object by its sha256.
    const mismatch = await raw('POST', `/restic/${repo.uuid}/data/${'ab'.repeat(32)}`, { body });
    expect(mismatch.status).toBe(400);
    const [existing] = fs.readdirSync(path.join(repoDir, 'snapshots'));
    const overwrite = await raw('POST', `/restic/${repo.uuid}/snapshots/${existing}`, { body });
    expect(overwrite.status).toBe(403);
    const config = await raw('POST', `/restic/${repo.uuid}/config`, { body });
    expect(config.status).toBe(403);
    expect(files(t.config.dataDir)).toEqual(before);
    for (const dir of [path.dirname(t.config.dataDir), t.config.dataDir, repoDir])
      expect(fs.existsSync(path.join(dir, evil))).toBe(false);

    // A right name is accepted once.
    const fine = await raw('POST', `/restic/${repo.uuid}/locks/${sha(body)}`, { body });
    expect(fine.status).toBe(200);
    expect(fs.readFileSync(path.join(repoDir, 'locks', sha(body)))).toEqual(body);
    expect((await raw('DELETE', `/restic/${repo.uuid}/locks/${sha(body)}`)).status).toBe(200);
  });

  it('meters the bytes a repository takes on disk', async () => {
    const bytes = await t.app.services.backupRepositories.meter(repo.uuid);
    expect(bytes).toBe(treeSize(repoDir));
    expect(bytes).toBeGreaterThan(1000);
    const row = await t.app.services.backupRepositories.find(repo.uuid);
    expect(Number(row!.bytes_used)).toBe(bytes);
    expect(row!.secret_hash).not.toContain(repo.secret);
  });
});

describe('failed credentials', () => {
  it('are limited per client address: ten times the sign-in limit a minute, then 429', async () => {
    const strict = await buildTestApp({ authRateLimit: 1 });
    try {
      const own = await strict.app.services.backupRepositories.create(null);
      const basic = (secret: string) => ({
        authorization: `Basic ${Buffer.from(`${own.uuid}:${secret}`).toString('base64')}`,
      });
      const url = `/restic/${own.uuid}/config`;
      // Successes give their slot back: they never count.
      for (let i = 0; i < 12; i += 1)
        expect((await strict.call('HEAD', url, { headers: basic(own.secret) })).statusCode).toBe(
          404,
        );
      for (let i = 0; i < 10; i += 1)
        expect((await strict.call('HEAD', url, { headers: basic('wrong') })).statusCode).toBe(401);
      const limited = await strict.call('HEAD', url, { headers: basic(own.secret) });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      const elsewhere = await strict.call('HEAD', url, {
        headers: basic(own.secret),
        ip: '10.0.0.9',
      });
      expect(elsewhere.statusCode).toBe(404);
    } finally {
      await strict.close();
    }
  });
});
