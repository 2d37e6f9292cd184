import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { destroySandbox } from './cleanup';
import { missingPackages } from './deps';
import { createHomeImage, kernelHasQuotaFormat } from './home-image';
import { BASE_ENV, MARKER, SANDBOX_BASE, layout, markerValue } from './paths';
import { Sandbox } from './sandbox';
import { type SandboxConfig, writeJson } from './state';

/** The services of a Stackdeck server, by init.d name, enabled on a sandbox's first boot. */
export const DEFAULT_SERVICES = [
  'ssh',
  'nginx',
  'php8.2-fpm',
  'mariadb',
  'supervisor',
  'cron',
  'pure-ftpd',
  'postfix',
  'dovecot',
];

export interface SandboxOptions {
  /** The panel's URL on the host (http://127.0.0.1:PORT): the same URL works inside. */
  panel?: string;
  /** /home on a loop-mounted ext4 image with user and group quotas (needs CONFIG_QFMT_V2). */
  quota?: boolean;
  /** Size of /home's image in MiB; with quota the default is 1024, without no image at all. */
  homeSizeMb?: number;
  /** Init.d services to enable on the first boot (ssh is always one). */
  services?: string[];
  /** Commands (argv) the init starts after the services at every boot, in this order. */
  bootCommands?: string[][];
  /** Default sbx-ID. */
  hostname?: string;
  bootTimeoutMs?: number;
}

const SERVICE = /^[a-z0-9][a-z0-9.+_-]*$/;
const HOSTNAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Boots a new sandbox and resolves once its init says ready (services up, boot commands started). */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  await preflight(opts);
  const id = randomBytes(4).toString('hex');
  const l = layout(id);
  const services = [...new Set(['ssh', ...(opts.services ?? DEFAULT_SERVICES)])];
  const bad = services.find((s) => !SERVICE.test(s));
  if (bad !== undefined) throw new Error(`not a service name: ${JSON.stringify(bad)}`);
  const hostname = opts.hostname ?? `sbx-${id}`;
  if (!HOSTNAME.test(hostname)) throw new Error(`not a host name: ${JSON.stringify(hostname)}`);
  const homeSizeMb = opts.homeSizeMb ?? (opts.quota ? 1024 : undefined);
  const config: SandboxConfig = {
    id,
    hostname,
    panelPort: opts.panel === undefined ? undefined : panelPort(opts.panel),
    services,
    homeSizeMb,
    quota: opts.quota ?? false,
  };

  // The base stays root's alone; inside it, modes matter: the overlay's root dir takes the
  // upper dir's mode, and the sandbox's users must be able to walk /.
  mkdirSync(SANDBOX_BASE, { recursive: true, mode: 0o700 });
  for (const dir of [l.dir, l.upper, l.work, l.root, l.ctl, l.mysql])
    mkdirSync(dir, { mode: 0o755 });
  writeJson(l.config, config);
  try {
    writeBootCommands(l.ctl, opts.bootCommands ?? []);
    if (homeSizeMb !== undefined) await createHomeImage(l.homeImage, homeSizeMb, config.quota);
    spawnSupervisor(id);
    await waitForState(id, 15_000);
    const sandbox = new Sandbox(id);
    await sandbox.waitUntilReady(opts.bootTimeoutMs ?? 180_000);
    return sandbox;
  } catch (e) {
    await destroySandbox(id);
    throw e;
  }
}

async function preflight(opts: SandboxOptions): Promise<void> {
  if (process.getuid?.() !== 0)
    throw new Error('sandboxes need root (namespaces, mounts, loop devices)');
  const missing = await missingPackages();
  if (missing.length > 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')} (run: scripts/sandbox-server deps)`,
    );
  }
  if (opts.quota && kernelHasQuotaFormat() === false) {
    throw new Error(
      'quotas need a kernel with a quota format (CONFIG_QFMT_V2); this kernel has none, so ' +
        'setquota cannot work in a sandbox here (use homeSizeMb for a /home of its own without quotas)',
    );
  }
}

function panelPort(panel: string): number {
  const url = new URL(panel);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`panel must be http(s): ${panel}`);
  // Only the host's loopback: a sandbox has no other network to reach anything else through.
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
    throw new Error(`panel must be on 127.0.0.1 or localhost: ${panel}`);
  }
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** One file per command: its argv NUL-separated, read by init.sh with mapfile -d ''. */
function writeBootCommands(ctl: string, commands: string[][]): void {
  const dir = join(ctl, 'boot-commands');
  mkdirSync(dir, { recursive: true });
  commands.forEach((argv, i) => {
    if (argv.length === 0 || argv.some((a) => a.includes('\0'))) {
      throw new Error(`boot command ${i}: an argv of strings without NUL`);
    }
    writeFileSync(join(dir, String(i).padStart(3, '0')), argv.map((a) => `${a}\0`).join(''));
  });
}

/** The supervisor outlives this process (the CLI returns once the sandbox is up). */
function spawnSupervisor(id: string): void {
  const l = layout(id);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const script = fileURLToPath(new URL('./supervisor.ts', import.meta.url));
  const logFd = openSync(l.supervisorLog, 'a');
  const child = spawn(process.execPath, ['--import', tsx, script, id], {
    cwd: SANDBOX_BASE,
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: {
      PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
      [BASE_ENV]: SANDBOX_BASE,
      [MARKER]: markerValue(id),
    },
  });
  child.unref();
}

async function waitForState(id: string, timeoutMs: number): Promise<void> {
  const l = layout(id);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(l.state)) {
    if (Date.now() > deadline) {
      const log = existsSync(l.supervisorLog) ? readFileSync(l.supervisorLog, 'utf8') : '';
      throw new Error(`sandbox ${id}: its supervisor did not start in ${timeoutMs} ms\n${log}`);
    }
    await sleep(50);
  }
}
