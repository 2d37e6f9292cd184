import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run } from './exec';

/**
 * The init system, as a server runs it: systemd when it is the running manager, otherwise
 * Debian's init.d scripts (sysvinit, containers, sandboxes). Unit names are always the Debian
 * ones (ssh, php8.2-fpm, pure-ftpd).
 */
export async function hasSystemd(): Promise<boolean> {
  return (await fs.stat('/run/systemd/system').catch(() => null))?.isDirectory() ?? false;
}

const UNIT = /^[a-z0-9][a-z0-9.@_-]*$/;

function checkUnit(unit: string): string {
  if (!UNIT.test(unit)) throw new Error(`not a unit name: ${unit}`);
  return unit;
}

export async function unitInstalled(unit: string, systemd: boolean): Promise<boolean> {
  checkUnit(unit);
  if (systemd) {
    // Native units and those systemd generates from init.d scripts (pure-ftpd has only one).
    const res = await run('systemctl', [
      'show',
      '--property=LoadState',
      '--value',
      `${unit}.service`,
    ]);
    return res.code === 0 && res.stdout.trim() === 'loaded';
  }
  return (await fs.stat(`/etc/init.d/${unit}`).catch(() => null))?.isFile() ?? false;
}

export async function unitRunning(unit: string, systemd: boolean): Promise<boolean> {
  checkUnit(unit);
  if (systemd) return (await run('systemctl', ['is-active', '--quiet', unit])).code === 0;
  // LSB: status exits 0 when running, 1-4 when not.
  const res = await initScript(unit, 'status', 15_000);
  return res.code === 0;
}

export interface ActionResult {
  code: number;
  output: string;
}

/**
 * Runs `systemctl ACTION UNIT` or `/etc/init.d/UNIT ACTION`. The output goes to a file, not a
 * pipe: a daemon started by an init script may keep the script's stdout open for ever (MariaDB's
 * logger does), and waiting for a pipe to close would then never end. The exit code is the
 * script's own.
 */
export async function unitAction(
  unit: string,
  action: string,
  systemd: boolean,
  timeoutMs = 90_000,
): Promise<ActionResult> {
  checkUnit(unit);
  if (!/^[a-z-]+$/.test(action)) throw new Error(`not an action: ${action}`);
  return systemd
    ? spawnToFile('systemctl', [action, unit], timeoutMs)
    : initScript(unit, action, timeoutMs);
}

function initScript(unit: string, action: string, timeoutMs: number): Promise<ActionResult> {
  return spawnToFile(`/etc/init.d/${unit}`, [action], timeoutMs);
}

async function spawnToFile(
  file: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<ActionResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-'));
  const out = path.join(dir, 'output');
  const handle = await fs.open(out, 'w', 0o600);
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(file, args, {
        stdio: ['ignore', handle.fd, handle.fd],
        shell: false,
        env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' },
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${path.basename(file)} ${args.join(' ')} timed out`));
      }, timeoutMs);
      child.on('error', (error) => (clearTimeout(timer), reject(error)));
      child.on('exit', (status, signal) => {
        clearTimeout(timer);
        resolve(status ?? (signal ? 128 : 1));
      });
    });
    const output = await fs.readFile(out, 'utf8').catch(() => '');
    return { code, output: output.trim() };
  } finally {
    await handle.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
