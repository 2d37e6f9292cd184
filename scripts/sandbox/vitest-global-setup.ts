import { stopAllSandboxes } from './cleanup';

/**
 * Vitest globalSetup of the system project: sandboxes left by a crashed or killed run are
 * removed before the run, and whatever this run leaves is removed after it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const left = await stopAllSandboxes();
  if (left.length > 0) console.warn(`removed leftover sandboxes: ${left.join(' ')}`);
  return async () => {
    await stopAllSandboxes();
  };
}
