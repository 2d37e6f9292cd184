import { isAbsolute, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The base when STACKDECK_SANDBOX_BASE is not set. */
export const DEFAULT_SANDBOX_BASE = '/var/tmp/stackdeck-sandbox';

/** Environment variable choosing the base dir, so that concurrent runs keep apart. */
export const BASE_ENV = 'STACKDECK_SANDBOX_BASE';

/** An absolute, normalized dir path without trailing slash; anything else is refused. */
export function checkBase(base: string): string {
  const clean = normalize(base).replace(/\/+$/, '');
  if (!isAbsolute(base) || clean !== base || clean === '' || /[\s\0]/.test(base)) {
    throw new Error(`${BASE_ENV} must be an absolute, normalized path: ${JSON.stringify(base)}`);
  }
  return base;
}

/**
 * Every sandbox lives in one dir under this base, and nothing of a sandbox lives anywhere else
 * on the host: stop removes the dir, stop --all every dir here — and only here: the sandboxes
 * of another base (another test run, another clone's CI) are never found nor touched.
 */
export const SANDBOX_BASE = checkBase(process.env[BASE_ENV] || DEFAULT_SANDBOX_BASE);

/** The scripts that run inside the new namespaces (boot.sh, init.sh, provision.sh). */
export const GUEST_DIR = fileURLToPath(new URL('./guest/', import.meta.url));

/**
 * Environment variable carried by every process the launcher starts for a sandbox. Its value
 * is the sandbox's dir (BASE/ID), so a search for marked processes keeps to its own base.
 */
export const MARKER = 'STACKDECK_SANDBOX';

/** The marker's value for a sandbox of this base. */
export function markerValue(id: string, base: string = SANDBOX_BASE): string {
  return join(base, id);
}

/**
 * The base and id a marker value names. A bare id (markers written before bases existed)
 * belongs to the default base.
 */
export function parseMarker(value: string): { base: string; id: string } | undefined {
  const slash = value.lastIndexOf('/');
  const base = slash < 0 ? DEFAULT_SANDBOX_BASE : value.slice(0, slash);
  const id = value.slice(slash + 1);
  return isSandboxId(id) && base !== '' ? { base, id } : undefined;
}

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

export function layout(id: string, base: string = SANDBOX_BASE): Layout {
  if (!isSandboxId(id)) throw new Error(`not a sandbox id: ${JSON.stringify(id)}`);
  const dir = join(base, id);
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
