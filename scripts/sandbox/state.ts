import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Layout } from './paths';

/** What the launcher was asked for; written once by startSandbox, read by the supervisor. */
export interface SandboxConfig {
  id: string;
  hostname: string;
  /** Port of the panel on the host's 127.0.0.1, forwarded to the same port inside. */
  panelPort?: number;
  /** Init.d service names enabled in rc2.d on the first boot. */
  services: string[];
  /** /home on a loop-mounted ext4 image of this size (MiB), or none. */
  homeSizeMb?: number;
  /** Mount that image with usrquota,grpquota. */
  quota: boolean;
}

export type SandboxStatus = 'booting' | 'ready' | 'rebooting' | 'failed' | 'halted' | 'ended';

/** Written only by the sandbox's supervisor; everyone else reads it. */
export interface SandboxState {
  id: string;
  status: SandboxStatus;
  /** 1 for the first boot, +1 for each reboot. */
  boot: number;
  reboots: number;
  supervisorPid: number;
  unsharePid?: number;
  /** Host pid of the sandbox's init (PID 1 inside): nsenter's target. */
  initPid?: number;
  /** /proc/<initPid>/ns/pid, to tell a reused pid from the init. */
  pidNs?: string;
  socatPid?: number;
  bootStartedAt?: string;
  /** How long the last boot took until the init said ready. */
  bootMs?: number;
  message?: string;
  createdAt: string;
  updatedAt: string;
}

export function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Rename over the old file so a reader never sees half a state. */
export function writeJson(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  renameSync(tmp, path);
}

export const readConfig = (l: Layout) => readJson<SandboxConfig>(l.config);
export const readState = (l: Layout) => readJson<SandboxState>(l.state);
