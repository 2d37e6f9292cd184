/**
 * Sandbox servers for tests and demos: throwaway Debian "servers" on this machine, in their
 * own namespaces over an overlay of the host's root. See README.md beside this file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { SANDBOX_BASE, isSandboxId } from './paths';
import { Sandbox } from './sandbox';
import { readJson } from './state';
import type { SandboxConfig } from './state';

export { Sandbox, type ExecOptions, type ExecResult } from './sandbox';
export { startSandbox, DEFAULT_SERVICES, type SandboxOptions } from './start';
export { destroySandbox, stopAllSandboxes } from './cleanup';
export { installDeps, missingPackages, SANDBOX_PACKAGES } from './deps';
export { kernelHasQuotaFormat } from './home-image';
export { SANDBOX_BASE } from './paths';
export type { SandboxState, SandboxStatus, SandboxConfig } from './state';

/** A handle on a running (or leftover) sandbox by id. */
export function openSandbox(id: string): Sandbox {
  return new Sandbox(id);
}

/** Every sandbox dir with a config, running or not. */
export function listSandboxes(): Sandbox[] {
  if (!existsSync(SANDBOX_BASE)) return [];
  return readdirSync(SANDBOX_BASE)
    .filter(isSandboxId)
    .filter((id) => readJson<SandboxConfig>(`${SANDBOX_BASE}/${id}/config.json`) !== undefined)
    .flatMap((id) => {
      try {
        return [new Sandbox(id)];
      } catch {
        return [];
      }
    });
}
