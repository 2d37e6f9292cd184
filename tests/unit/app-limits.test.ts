import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  WRAPPER,
  WRAPPER_SCRIPT,
  appLimits,
  limitedArgv,
  renderLimitsConf,
  renderPamLimits,
  userLimits,
} from '../../features/webapps/limits';

const exec = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'limits-'));
const wrapper = path.join(dir, 'run-limited');
writeFileSync(wrapper, WRAPPER_SCRIPT, { mode: 0o755 });
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('per-app limits', () => {
  it('takes limits within bounds only', () => {
    expect(appLimits.parse({ processes: '300', memory_mb: 2048 })).toEqual({
      processes: 300,
      memory_mb: 2048,
    });
    for (const bad of [
      { processes: 15, memory_mb: 1024 },
      { processes: 16_385, memory_mb: 1024 },
      { processes: 256, memory_mb: 63 },
      { processes: 256, memory_mb: 65_537 },
      { processes: 1.5, memory_mb: 1024 },
      { processes: '256; rm -rf /', memory_mb: 1024 },
    ])
      expect(appLimits.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it("gives a user the largest of its apps' own settings, the defaults when none has one", () => {
    expect(userLimits([])).toEqual(DEFAULT_LIMITS);
    expect(userLimits([null, null])).toEqual(DEFAULT_LIMITS);
    expect(userLimits([{ processes: 64, memory_mb: 4096 }, null])).toEqual({
      processes: 64,
      memory_mb: 4096,
    });
    expect(
      userLimits([
        { processes: 64, memory_mb: 4096 },
        { processes: 512, memory_mb: 128 },
      ]),
    ).toEqual({ processes: 512, memory_mb: 4096 });
  });

  it('puts the wrapper in front of the argv, the program and its arguments untouched', () => {
    expect(limitedArgv('bash', ['-c', 'echo "$HOME"; rm -rf x'])).toEqual([
      WRAPPER,
      ['--', 'bash', '-c', 'echo "$HOME"; rm -rf x'],
    ]);
  });

  it('writes the files the wrapper and pam_limits read', () => {
    const limits = { processes: 64, memory_mb: 512 };
    expect(renderLimitsConf(limits)).toMatch(/\nprocesses=64\nmemory_mb=512\n$/);
    expect(renderPamLimits('alice', limits)).toContain(
      'alice soft nproc 64\nalice hard nproc 64\n',
    );
  });

  // The wrapper itself, run for real: limits set hard, nice 10, the command as written.
  it('runs a program under hard limits at nice 10 (defaults without a file)', async () => {
    const { stdout } = await exec(wrapper, [
      '--',
      'bash',
      '-c',
      'ulimit -Hu; ulimit -Su; ulimit -Hd; nice; echo "$0 $1"',
      'a b',
      'c',
    ]);
    expect(stdout.split('\n')).toEqual([
      String(DEFAULT_LIMITS.processes),
      String(DEFAULT_LIMITS.processes),
      String(DEFAULT_LIMITS.memory_mb * 1024),
      '10',
      'a b c',
      '',
    ]);
  });

  it("keeps a lower hard limit it finds (pam_limits'), as a user who cannot raise it", async () => {
    const { stdout } = await exec('setpriv', [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      'prlimit',
      '--nproc=20:20',
      '--',
      wrapper,
      '--',
      'bash',
      '-c',
      'ulimit -Hu; ulimit -Su; ulimit -Hd',
    ]);
    expect(stdout).toBe(`20\n20\n${DEFAULT_LIMITS.memory_mb * 1024}\n`);
  });

  it("runs cron's -c form with /bin/sh, and refuses anything else", async () => {
    const { stdout } = await exec(wrapper, [
      '-c',
      `echo "%x"; awk '/^Max processes/ { print $3 }' /proc/self/limits`,
    ]);
    expect(stdout).toBe(`%x\n${DEFAULT_LIMITS.processes}\n`);
    for (const args of [[], ['ls'], ['-c'], ['-c', 'true', 'extra'], ['--']])
      await expect(exec(wrapper, args)).rejects.toMatchObject({ code: 126 });
  });
});
