import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Sandbox,
  SANDBOX_BASE,
  kernelHasQuotaFormat,
  startSandbox,
} from '../../scripts/sandbox/index';
import {
  allPids,
  kill,
  markedProcesses,
  namespaceOf,
  waitGone,
} from '../../scripts/sandbox/processes';

/**
 * The ways a sandbox ends or fails: a halt, a service that fails to start, an sshd that fails
 * (a failed boot), a launcher that crashed (stop --all), quotas on a kernel with or without
 * quota support; and the command line. Small sandboxes (ssh and nginx only) boot faster.
 */

const CLI = join(import.meta.dirname, '../../scripts/sandbox-server');
const run = promisify(execFile);
const started: Sandbox[] = [];

async function small(): Promise<Sandbox> {
  const sb = await startSandbox({ services: ['ssh', 'nginx'] });
  started.push(sb);
  return sb;
}

/** What the CLI prints and its exit code (execFile rejects on non-zero: keep both). */
async function cli(
  ...args: [{ env: NodeJS.ProcessEnv }, ...string[]] | string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [first, ...more] = args;
  const opts = typeof first === 'object' ? first : {};
  const argv = typeof first === 'object' ? (more as string[]) : (args as string[]);
  try {
    const { stdout, stderr } = await run(CLI, argv, opts);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

function processesIn(pidNs: string | undefined): number[] {
  return allPids().filter((pid) => namespaceOf(pid, 'pid') === pidNs);
}

afterAll(async () => {
  for (const sb of started) await sb.stop();
});

describe('sandbox lifecycle', () => {
  it('reports a service that fails to start, and fails the boot loudly when sshd does', async () => {
    const sb = await small();
    await sb.execOk([
      'bash',
      '-c',
      'echo "this is not nginx syntax" >/etc/nginx/conf.d/broken.conf',
    ]);
    await sb.reboot();
    expect(sb.services()).toEqual({ ssh: 'started', nginx: 'failed' });
    expect(sb.bootLog()).toMatch(/\[sandbox init 2\] nginx FAILED \(exit 1/);

    await sb.execOk(['bash', '-c', 'echo "NoSuchOption yes" >>/etc/ssh/sshd_config']);
    const { pidNs } = sb.state();
    await sb.exec(['systemctl', 'reboot', '--force', '--force']);
    await expect(sb.waitForReboot()).rejects.toThrow(/failed .*sshd is not running/);
    expect(sb.state().status).toBe('failed');
    expect(processesIn(pidNs)).toEqual([]);
    await sb.stop();
    expect(existsSync(sb.dir)).toBe(false);
  });

  it('ends on a halt inside, and stop removes what is left', async () => {
    const sb = await small();
    const { pidNs } = sb.state();
    await sb.exec(['systemctl', 'halt', '--force', '--force']);
    await sb.waitFor(() => sb.state().status === 'halted', 30_000);
    expect(sb.reboots).toBe(0);
    expect(processesIn(pidNs)).toEqual([]);
    await expect(sb.exec(['true'])).rejects.toThrow(/not running \(halted\)/);
    await sb.stop();
    expect(existsSync(sb.dir)).toBe(false);
  });

  it('runs commands from the command line, as root or as a user, with their exit code', async () => {
    const sb = await small();
    const res = await cli('exec', sb.id, '--', 'bash', '-c', 'hostname; exit 7');
    expect(res).toMatchObject({ code: 7, stdout: `${sb.hostname}\n` });
    expect((await cli('exec', '--user', 'www-data', sb.id, '--', 'id', '-un')).stdout).toBe(
      'www-data\n',
    );
    const list = await cli('list');
    expect(list.stdout).toMatch(new RegExp(`^${sb.id} +${sb.hostname} +ready +0 `, 'm'));
  });

  it('finds and removes the leftovers of a crashed launcher with stop --all, in its own base only', async () => {
    // stop --all runs against a private base: it can never reach a sandbox it did not make
    // (those of this run's base, of other runs, of CI in another clone).
    const base = mkdtempSync('/var/tmp/sbx-lifecycle-');
    const env = { ...process.env, STACKDECK_SANDBOX_BASE: base };
    const neighbour = await small(); // in this run's base: must survive
    try {
      const boot = await cli({ env }, 'start', '--services', 'ssh');
      expect(boot.code, boot.stdout + boot.stderr).toBe(0);
      const id = /^sandbox ([a-z0-9]+) /m.exec(boot.stdout)?.[1] ?? '';
      const dir = join(base, id);
      const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as {
        supervisorPid: number;
        initPid: number;
        pidNs: string;
      };
      // The launcher dies; the sandbox runs on, owned by nobody.
      kill(state.supervisorPid);
      await waitGone([state.supervisorPid], 5_000);
      expect(processesIn(state.pidNs)).toContain(state.initPid);
      expect(markedProcesses(id, base).length).toBeGreaterThan(0);
      // Not seen from this run's base.
      expect(markedProcesses(id).length).toBe(0);
      // And a dir of an earlier crash with no process at all.
      const stale = join(base, 'deadbeef');
      mkdirSync(join(stale, 'upper/etc'), { recursive: true });
      writeFileSync(join(stale, 'upper/etc/hostname'), 'sbx-deadbeef\n');

      const res = await cli({ env }, 'stop', '--all');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(id);
      expect(res.stdout).toContain('deadbeef');
      expect(res.stdout).not.toContain(neighbour.id);
      expect(processesIn(state.pidNs)).toEqual([]);
      expect(markedProcesses(undefined, base)).toEqual([]);
      expect(existsSync(dir)).toBe(false);
      expect(existsSync(stale)).toBe(false);
      expect((await cli({ env }, 'stop', '--all')).stdout).toContain('no sandboxes');
      // The neighbour in the other base was never touched.
      expect(neighbour.state().status).toBe('ready');
      expect((await neighbour.execOk(['hostname'])).stdout).toBe(`${neighbour.hostname}\n`);
    } finally {
      await cli({ env }, 'stop', '--all');
      rmSync(base, { recursive: true, force: true });
    }
  });

  // This kernel decides which of the next two runs: quotas need a quota format in the kernel.
  const quotaKernel = kernelHasQuotaFormat() !== false;
  // One of the two cases below runs on a given kernel: the run says which was left out.
  console.warn(
    quotaKernel
      ? 'SKIPPED: --quota refused on a kernel without quota formats (this kernel has them)'
      : 'SKIPPED: disk quotas enforced with setquota (this kernel has no quota formats)',
  );

  it.runIf(quotaKernel)('enforces disk quotas set with setquota inside (--quota)', async () => {
    const sb = await startSandbox({ services: ['ssh'], quota: true, homeSizeMb: 256 });
    started.push(sb);
    await sb.execOk(['useradd', '-m', 'quser']);
    await sb.execOk(['setquota', '-u', 'quser', '10240', '12288', '0', '0', '/home']);
    const report = await sb.execOk(['quota', '-u', 'quser', '-w']);
    expect(report.stdout).toMatch(/\s10240\s+12288\s/);
    const fill = await sb.exec(['dd', 'if=/dev/zero', 'of=/home/quser/fill', 'bs=1M', 'count=20'], {
      user: 'quser',
    });
    expect(fill.stderr).toContain('Disk quota exceeded');
  });

  it.skipIf(quotaKernel)(
    'refuses --quota on a kernel without quota formats, leaving nothing',
    async () => {
      const dirs = () => (existsSync(SANDBOX_BASE) ? readdirSync(SANDBOX_BASE).sort() : []);
      const before = dirs();
      await expect(startSandbox({ quota: true })).rejects.toThrow(/CONFIG_QFMT_V2/);
      expect(dirs()).toEqual(before);
    },
  );
});
