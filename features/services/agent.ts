import fs from 'node:fs/promises';
import { SERVICE_NAMES } from '../../resources/agent/validators';
import { runOk } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitInstalled, unitRunning } from '../../agent/lib/init';
import { type AgentFeature, defineAgentFeature } from '../../agent/ops/types';
import { type ServiceStatus, ops } from './resource';

type Service = (typeof SERVICE_NAMES)[number];

/**
 * The init units behind a service name, by Debian's package names. PHP-FPM is every
 * installed php*-fpm (one per PHP version); mail is Postfix and Dovecot together.
 */
const FIXED_UNITS: Record<Exclude<Service, 'php-fpm'>, string[]> = {
  nginx: ['nginx'],
  mariadb: ['mariadb'],
  supervisor: ['supervisor'],
  cron: ['cron'],
  sshd: ['ssh'],
  ftp: ['pure-ftpd'],
  mail: ['postfix', 'dovecot'],
};

/** php8.2-fpm, php8.3-fpm, ...: version order, from the unit or init.d names found. */
export function phpFpmUnits(names: readonly string[]): string[] {
  const units = new Set<string>();
  for (const name of names) {
    const match = /^(php\d+\.\d+-fpm)(\.service)?$/.exec(name);
    if (match) units.add(match[1]!);
  }
  const version = (unit: string) => unit.slice(3, -4).split('.').map(Number);
  return [...units].sort((a, b) => {
    const [a1 = 0, a2 = 0] = version(a);
    const [b1 = 0, b2 = 0] = version(b);
    return a1 - b1 || a2 - b2;
  });
}

async function unitsOf(service: Service, systemd: boolean): Promise<string[]> {
  if (service !== 'php-fpm') return FIXED_UNITS[service];
  // init.d holds the php*-fpm scripts under systemd too (Debian ships both).
  const dirs = systemd
    ? ['/lib/systemd/system', '/etc/systemd/system', '/etc/init.d']
    : ['/etc/init.d'];
  const names = (await Promise.all(dirs.map((d) => fs.readdir(d).catch(() => [])))).flat();
  const found = phpFpmUnits(names);
  return found.length > 0 ? found : ['php-fpm'];
}

async function statusOf(service: Service, systemd: boolean): Promise<ServiceStatus> {
  const units = await unitsOf(service, systemd);
  const installed = await Promise.all(units.map((u) => unitInstalled(u, systemd)));
  const present = units.filter((_, i) => installed[i]);
  const running = await Promise.all(present.map((u) => unitRunning(u, systemd)));
  return {
    name: service,
    units: present.length > 0 ? present : units,
    installed: present.length > 0,
    running: present.length > 0 && running.every(Boolean),
  };
}

/** Every service the panel controls, in the order the page lists them. */
const SERVICES: readonly Service[] = SERVICE_NAMES;

const servicesOps: AgentFeature<typeof ops>['ops'] = {
  async 'services.list'() {
    const systemd = await hasSystemd();
    return Promise.all(SERVICES.map((s) => statusOf(s, systemd)));
  },

  /**
   * sshd: stop is refused (the panel would lock its user out of the server); restart and
   * reload first check the configuration with `sshd -t`, and should sshd be down afterwards it
   * is started again, so it is never left stopped.
   */
  async 'services.control'({ service, action }) {
    const systemd = await hasSystemd();
    const before = await statusOf(service, systemd);
    if (!before.installed) throw new Error(`${service} is not installed on this server`);
    if (service === 'sshd') {
      if (action === 'stop') {
        throw new Error('Stopping the SSH server would lock you out; restart or reload it instead');
      }
      await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 });
      await runOk('sshd', ['-t']);
    }
    const failures: string[] = [];
    for (const unit of before.units) {
      let res = await unitAction(unit, action, systemd);
      // Init scripts without reload (or whose reload needs a running daemon) get a restart.
      if (res.code !== 0 && action === 'reload') res = await unitAction(unit, 'restart', systemd);
      if (res.code !== 0) {
        const detail = res.output.split('\n').slice(-3).join(' ');
        failures.push(`${unit}: ${action} failed (${res.code})${detail ? `: ${detail}` : ''}`);
      }
    }
    if (service === 'sshd' && !(await unitRunning('ssh', systemd))) {
      await unitAction('ssh', 'start', systemd);
    }
    if (failures.length > 0) throw new Error(failures.join('; '));
    const after = await statusOf(service, systemd);
    const expectRunning = action !== 'stop';
    if (after.running !== expectRunning) {
      throw new Error(`${service} is ${after.running ? 'still running' : 'not running'}`);
    }
    return after;
  },
};

/**
 * The server's services: status read from the init system, control under the service's lock
 * (`service:<name>`, which the features that reload a service hold too).
 */
export const agent = defineAgentFeature(ops, {
  ops: servicesOps,
  locks: { 'services.control': ({ service }) => [`service:${service}`] },
});
