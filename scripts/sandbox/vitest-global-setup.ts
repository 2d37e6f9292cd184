import { stopAllSandboxes } from './cleanup';
import { SANDBOX_BASE } from './paths';

/**
 * Vitest globalSetup of the system project: sandboxes left by a crashed or killed run are
 * removed before the run, and whatever this run leaves is removed after it — those of this
 * run's base only (STACKDECK_SANDBOX_BASE): runs with other bases are never touched.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const left = await stopAllSandboxes();
  if (left.length > 0)
    console.warn(`removed leftover sandboxes in ${SANDBOX_BASE}: ${left.join(' ')}`);
  return async () => {
    await stopAllSandboxes();
  };
}
