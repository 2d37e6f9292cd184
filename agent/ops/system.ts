import fs from 'node:fs/promises';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { writeFileAtomic } from '../lib/files';
import { runOk } from '../lib/exec';
import { Reporter } from '../report';
import type { OpTable } from './types';

const facts = new Reporter();

/** Leaves time for the answer to reach the panel before the machine goes away. */
function later(file: string, args: string[]) {
  setTimeout(() => {
    spawn(file, args, { detached: true, stdio: 'ignore' }).unref();
  }, 1000).unref();
}

async function rebootCommand(): Promise<[string, string[]]> {
  if (await fs.stat('/run/systemd/system').catch(() => null)) return ['systemctl', ['reboot']];
  // No systemd running (sysvinit, a container, a sandbox). Debian's /sbin/reboot is then
  // systemctl itself, which reboots at once with --force --force; a sysvinit reboot is used as is.
  const target = await fs.realpath('/sbin/reboot').catch(() => '/sbin/reboot');
  return target.endsWith('systemctl')
    ? ['systemctl', ['reboot', '--force', '--force']]
    : ['/sbin/reboot', []];
}

/** Replaces the 127.0.1.1 line (Debian's own host name entry) or adds one. */
export function hostsWithName(hosts: string, name: string): string {
  const short = name.split('.')[0]!;
  const entry = name === short ? `127.0.1.1\t${name}` : `127.0.1.1\t${name} ${short}`;
  const lines = hosts.split('\n');
  const index = lines.findIndex((line) => /^127\.0\.1\.1\s/.test(line));
  if (index >= 0) lines[index] = entry;
  else lines.splice(lines[lines.length - 1] === '' ? lines.length - 1 : lines.length, 0, entry);
  return lines.join('\n');
}

export const systemOps: Pick<
  OpTable,
  'system.uptime' | 'system.info' | 'system.reboot' | 'system.hostname'
> = {
  async 'system.uptime'() {
    const text = await fs.readFile('/proc/uptime', 'utf8');
    return { uptime: Number(text.split(' ')[0]) };
  },

  async 'system.info'() {
    const report = await facts.take();
    return {
      os: report.os,
      tz: report.timezone,
      hostname: report.hostname,
      kernel_version: report.kernel_version,
    };
  },

  async 'system.reboot'() {
    const [file, args] = await rebootCommand();
    await runOk('sync', []);
    later(file, args);
    return { rebooting: true as const };
  },

  async 'system.hostname'({ hostname }) {
    await runOk('hostname', [hostname]);
    await writeFileAtomic('/etc/hostname', `${hostname}\n`, 0o644);
    const hosts = await fs.readFile('/etc/hosts', 'utf8').catch(() => '127.0.0.1\tlocalhost\n');
    await writeFileAtomic('/etc/hosts', hostsWithName(hosts, hostname), 0o644);
    return { hostname: os.hostname() };
  },
};

export { later };
