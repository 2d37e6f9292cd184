import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every sandbox lives in one dir under this base, and nothing of a sandbox lives anywhere else
 * on the host: stop removes the dir, stop --all every dir here.
 */
export const SANDBOX_BASE = '/var/tmp/stackdeck-sandbox';

/** The scripts that run inside the new namespaces (boot.sh, init.sh, provision.sh). */
export const GUEST_DIR = fileURLToPath(new URL('./guest/', import.meta.url));

/** Environment variable carried by every process the launcher starts for a sandbox. */
export const MARKER = 'STACKDECK_SANDBOX';

export interface Layout {
  id: string;
  dir: string;
  /** The overlay's upper dir: the sandbox's disk, kept across reboots. */
  upper: string;
  work: string;
  /** Where boot.sh mounts the overlay, inside the sandbox's mount namespace only. */
  root: string;
  /** Bound at /run/stackdeck-sandbox inside: status, logs, boot commands, panel socket. */
  ctl: string;
  /** Bound at /var/lib/mysql inside: MariaDB's own datadir. */
  mysql: string;
  homeImage: string;
  config: string;
  state: string;
  /** What boot.sh and init.sh print, over every boot. */
  console: string;
  supervisorLog: string;
  panelSocket: string;
}

const ID = /^[a-z0-9]{1,32}$/;

export function isSandboxId(id: string): boolean {
  return ID.test(id);
}

export function layout(id: string): Layout {
  if (!isSandboxId(id)) throw new Error(`not a sandbox id: ${JSON.stringify(id)}`);
  const dir = join(SANDBOX_BASE, id);
  const ctl = join(dir, 'ctl');
  return {
    id,
    dir,
    upper: join(dir, 'upper'),
    work: join(dir, 'work'),
    root: join(dir, 'root'),
    ctl,
    mysql: join(dir, 'mysql'),
    homeImage: join(dir, 'home.img'),
    config: join(dir, 'config.json'),
    state: join(dir, 'state.json'),
    console: join(dir, 'console.log'),
    supervisorLog: join(dir, 'supervisor.log'),
    panelSocket: join(ctl, 'panel.sock'),
  };
}
