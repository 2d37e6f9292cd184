import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  existsSync,
  writeFileSync,
} from 'node:fs';
import { readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyConfig } from '../../agent/lib/configTransaction';
import { OpError } from '../../agent/lib/opError';

/** The transaction on a temp dir, with real programs as the checks and the reload. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'config-tx-'));
});

/** sshd -t wants a host key and its privilege separation dir (made by the agent, as root). */
const keyDir = mkdtempSync(join(tmpdir(), 'config-tx-key-'));
const hostKey = join(keyDir, 'host_ed25519');
let sshdUsable = false;
try {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const probe = join(keyDir, 'probe');
  writeFileSync(probe, `HostKey ${hostKey}\n`);
  execFileSync('sshd', ['-t', '-f', probe], { stdio: 'ignore' });
  sshdUsable = true;
} catch {
  // No sshd here (or not usable without root): that case is skipped, and the run says so.
  console.warn('SKIPPED: the sshd -t check of config transactions: no usable sshd here');
}
const GOOD_SSHD = `Port 2222\nPasswordAuthentication no\nHostKey ${hostKey}\n`;
const BAD_SSHD = `HostKey ${hostKey}\nNoSuchOption yes\n`;

async function failure(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpError);
  return error as OpError;
}

describe('config transaction', () => {
  it('writes atomically, keeps the mode, checks and reloads', async () => {
    const file = join(dir, 'app.conf');
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o640);
    const marker = join(dir, 'reloaded');
    await applyConfig({
      program: 'app',
      files: [{ path: file, content: 'new\n' }],
      check: ['/bin/true'],
      reload: ['touch', marker],
    });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(existsSync(marker)).toBe(true);
    // No temp file is left beside it.
    expect(readdirSync(dir).sort()).toEqual(['app.conf', 'reloaded']);
  });

  it('a failing check leaves the old content, skips the reload and says why', async () => {
    const file = join(dir, 'app.conf');
    writeFileSync(file, 'old\n');
    const marker = join(dir, 'reloaded');
    const error = await failure(
      applyConfig({
        program: 'app',
        files: [{ path: file, content: 'new\n' }],
        check: ['/bin/false'],
        reload: ['touch', marker],
      }),
    );
    expect(error.code).toBe('check_failed');
    expect(error.message).toMatch(/^app refused the new configuration/);
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('a failing reload puts the old content back and reloads again', async () => {
    const file = join(dir, 'app.conf');
    writeFileSync(file, 'old\n');
    const log = join(dir, 'reloads');
    let reloads = 0;
    const error = await failure(
      applyConfig({
        program: 'app',
        files: [{ path: file, content: 'new\n' }],
        check: ['/bin/true'],
        reload: async () => {
          reloads += 1;
          writeFileSync(log, readFileSync(file, 'utf8'), { flag: 'a' });
          if (readFileSync(file, 'utf8') === 'new\n') throw new Error('app did not come back');
        },
      }),
    );
    expect(error).toMatchObject({ code: 'reload_failed', message: 'app did not come back' });
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    // Reloaded with the new content, then again with the old one.
    expect(reloads).toBe(2);
    expect(readFileSync(log, 'utf8')).toBe('new\nold\n');
  });

  it('a reload program that fails gives reload_failed with its message', async () => {
    const file = join(dir, 'app.conf');
    writeFileSync(file, 'old\n');
    const error = await failure(
      applyConfig({
        program: 'app',
        files: [{ path: file, content: 'new\n' }],
        reload: ['ls', join(dir, 'missing')],
      }),
    );
    expect(error.code).toBe('reload_failed');
    expect(error.message).toMatch(/^app could not reload: .*missing/);
    expect(readFileSync(file, 'utf8')).toBe('old\n');
  });

  it('a new file that fails its check is removed', async () => {
    const file = join(dir, 'new.conf');
    await failure(
      applyConfig({
        program: 'app',
        files: [{ path: file, content: 'x\n' }],
        check: ['/bin/false'],
      }),
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('rolls back every file of the change, and a failed verification too', async () => {
    const a = join(dir, 'a.conf');
    const b = join(dir, 'b.conf');
    writeFileSync(a, 'a-old\n');
    const error = await failure(
      applyConfig({
        program: 'app',
        files: [
          { path: a, content: 'a-new\n' },
          { path: b, content: 'b-new\n' },
        ],
        check: ['/bin/true'],
        reload: ['/bin/true'],
        verify: () => Promise.reject(new OpError('failed', 'app does not listen on 8080')),
      }),
    );
    expect(error.message).toBe('app does not listen on 8080');
    expect(readFileSync(a, 'utf8')).toBe('a-old\n');
    expect(existsSync(b)).toBe(false);
  });

  it.skipIf(!sshdUsable)(
    (sshdUsable ? '' : 'SKIPPED (no usable sshd): ') +
      'checks with sshd -t -f: a good file is kept, a bad one refused with sshd’s words',
    async () => {
      const file = join(dir, 'sshd_config');
      const check = ['sshd', '-t', '-f', file];
      await applyConfig({ program: 'sshd', files: [{ path: file, content: GOOD_SSHD }], check });
      expect(readFileSync(file, 'utf8')).toBe(GOOD_SSHD);

      const error = await failure(
        applyConfig({ program: 'sshd', files: [{ path: file, content: BAD_SSHD }], check }),
      );
      expect(error.code).toBe('check_failed');
      expect(error.message).toMatch(/sshd refused the new configuration: .*NoSuchOption/);
      expect(readFileSync(file, 'utf8')).toBe(GOOD_SSHD);
    },
  );

  it('refuses a file that is a symbolic link, and writes nothing through it', async () => {
    const target = join(dir, 'target');
    writeFileSync(target, 'secret\n');
    const link = join(dir, 'link.conf');
    symlinkSync(target, link);
    const error = await failure(
      applyConfig({ program: 'app', files: [{ path: link, content: 'x\n' }] }),
    );
    expect(error.code).toBe('refused');
    expect(readFileSync(target, 'utf8')).toBe('secret\n');
  });
});
