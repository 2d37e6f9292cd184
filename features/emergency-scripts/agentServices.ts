import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitInstalled, unitRunning } from '../../agent/lib/init';
import type { OpContext } from '../../agent/ops/types';
import { Output, stream } from './agentOutput';

/** A service the scripts restart: its init unit, its process name, its configuration check. */
interface Daemon {
  unit: string;
  /** The process name (`comm`) of its main process, for the PID before and after. */
  process: string;
  check?: [string, string[]];
}

/** php8.2-fpm, php8.3-fpm...: every PHP-FPM the server has, from the unit and init.d names. */
async function phpFpms(systemd: boolean): Promise<Daemon[]> {
  const dirs = systemd
    ? ['/lib/systemd/system', '/etc/systemd/system', '/etc/init.d']
    : ['/etc/init.d'];
  const names = (await Promise.all(dirs.map((d) => fs.readdir(d).catch(() => [])))).flat();
  const units = new Set<string>();
  for (const name of names) {
    const match = /^php(\d+\.\d+)-fpm(\.service)?$/.exec(name);
    if (match) units.add(match[1]!);
  }
  return [...units].sort().map((v) => ({
    unit: `php${v}-fpm`,
    process: `php-fpm${v}`,
    check: [`/usr/sbin/php-fpm${v}`, ['-t']],
  }));
}

/** The oldest process of that name (a master), or null when none runs. */
async function pidOf(process: string): Promise<number | null> {
  const res = await run('pgrep', ['-o', '-x', process]).catch(() => null);
  const pid = Number(res?.stdout.trim());
  return res?.code === 0 && pid > 0 ? pid : null;
}

async function installed(daemons: Daemon[], systemd: boolean): Promise<Daemon[]> {
  const found = await Promise.all(daemons.map((d) => unitInstalled(d.unit, systemd)));
  return daemons.filter((_, i) => found[i]);
}

/** Started at boot: `systemctl is-enabled`, or an S link in a multi-user runlevel's rc dir. */
async function enabledAtBoot(unit: string, systemd: boolean): Promise<boolean> {
  if (systemd) return (await run('systemctl', ['is-enabled', '--quiet', unit])).code === 0;
  for (const level of [2, 3, 4, 5]) {
    const links = await fs.readdir(`/etc/rc${level}.d`).catch(() => [] as string[]);
    if (links.some((name) => /^S\d\d/.test(name) && name.slice(3) === unit)) return true;
  }
  return false;
}

/**
 * What a restart may touch: the daemons running now, and those down that the server starts at
 * boot (a crashed one). One installed but neither (Apache beside nginx) is left alone: starting
 * it would fight the web server for its ports.
 */
async function inService(daemons: Daemon[], systemd: boolean) {
  const kept: Daemon[] = [];
  const skipped: string[] = [];
  for (const daemon of daemons) {
    if ((await unitRunning(daemon.unit, systemd)) || (await enabledAtBoot(daemon.unit, systemd)))
      kept.push(daemon);
    else skipped.push(daemon.unit);
  }
  return { kept, skipped };
}

/**
 * Restarts each daemon after its configuration check passes; one that fails its check is left
 * as it runs (a restart would take it down). Says the PID before and after. Returns the failures.
 */
async function restartEach(out: Output, daemons: Daemon[], systemd: boolean): Promise<string[]> {
  const failures: string[] = [];
  for (const daemon of daemons) {
    if (daemon.check) {
      const [file, args] = daemon.check;
      const test = await stream(out, file, args, { timeoutMs: 30_000, quiet: true }).catch(
        (e: Error) => ({ code: 1, lines: [e.message] }),
      );
      if (test.code !== 0) {
        const detail = test.lines.slice(-3).join(' ');
        out.say(`${daemon.unit}: configuration test failed, not restarted: ${detail}`);
        failures.push(`${daemon.unit}: configuration test failed`);
        out.next();
        continue;
      }
      out.say(`${daemon.unit}: configuration OK`);
    }
    const before = await pidOf(daemon.process);
    out.say(`${daemon.unit}: restarting (PID ${before ?? 'none: not running'})`);
    const res = await unitAction(daemon.unit, 'restart', systemd);
    if (res.output) out.say(res.output);
    const after = (await unitRunning(daemon.unit, systemd)) ? await pidOf(daemon.process) : null;
    if (res.code !== 0 || after === null) {
      out.say(`${daemon.unit}: not running after the restart (exit ${res.code})`);
      failures.push(`${daemon.unit}: not running after the restart`);
    } else {
      out.say(`${daemon.unit}: running, PID ${before ?? 'none'} -> ${after}`);
    }
    out.next();
  }
  return failures;
}

function ended(restarted: Daemon[], failures: string[]): { summary: string } {
  if (failures.length) throw new Error(failures.join('; '));
  return { summary: `Restarted ${restarted.map((d) => d.unit).join(', ')}` };
}

/** nginx, Apache and every PHP-FPM installed, each after its configuration check. */
export async function restartWebStack(ctx: OpContext): Promise<{ summary: string }> {
  const systemd = await hasSystemd();
  const { kept: daemons, skipped } = await inService(
    await installed(
      [
        { unit: 'nginx', process: 'nginx', check: ['nginx', ['-t']] },
        { unit: 'apache2', process: 'apache2', check: ['apache2ctl', ['configtest']] },
        ...(await phpFpms(systemd)),
      ],
      systemd,
    ),
    systemd,
  );
  if (!daemons.length)
    throw new Error('No nginx, Apache or PHP-FPM runs or starts at boot on this server');
  const out = new Output(ctx, daemons.length);
  out.say(`Web stack: ${daemons.map((d) => d.unit).join(', ')}`);
  if (skipped.length)
    out.say(`Left alone (installed, not running, not started at boot): ${skipped.join(', ')}`);
  return ended(daemons, await restartEach(out, daemons, systemd));
}

/** MariaDB (or MySQL), then a ping until it answers. */
export async function restartDatabase(ctx: OpContext): Promise<{ summary: string }> {
  const systemd = await hasSystemd();
  const [daemon] = await installed(
    [
      { unit: 'mariadb', process: 'mariadbd' },
      { unit: 'mysql', process: 'mysqld' },
    ],
    systemd,
  );
  if (!daemon) throw new Error('No MariaDB or MySQL is installed on this server');
  const out = new Output(ctx, 2);
  // Older MariaDB packages name the daemon mysqld under the mariadb unit.
  if (!(await pidOf(daemon.process)) && (await pidOf('mysqld'))) daemon.process = 'mysqld';
  const failures = await restartEach(out, [daemon], systemd);
  if (!failures.length) {
    const admin = (await fs.stat('/usr/bin/mariadb-admin').catch(() => null))
      ? 'mariadb-admin'
      : 'mysqladmin';
    let answered = false;
    for (let i = 0; i < 30 && !answered; i += 1) {
      const ping = await run(admin, ['ping'], { timeoutMs: 10_000 }).catch(() => null);
      answered = ping?.code === 0;
      if (!answered) await new Promise((r) => setTimeout(r, 1000));
    }
    out.say(answered ? `${daemon.unit}: answers (${admin} ping)` : `${daemon.unit}: no answer`);
    if (!answered) failures.push(`${daemon.unit}: does not answer a ping after the restart`);
  }
  return ended([daemon], failures);
}
