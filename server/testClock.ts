import fs from 'node:fs';
import type { Clock } from './auth/sessions';

/** Hosts a panel may listen on while its clock is the test's: this machine only. */
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The UI tests' panel clock: `STACKDECK_TEST_CLOCK=<file>` makes the panel's time (sessions,
 * codes, TOTP, API keys: everything build()'s clock reaches) the real time plus the
 * milliseconds the file holds, read on each call; no file is no offset. A test writes a
 * larger number to move the panel past a lifetime instead of waiting it out.
 *
 * Test-only, and refused where it could be a production panel: with NODE_ENV=production, or
 * when the panel listens on anything but loopback (a real panel listens on 0.0.0.0 or an
 * address); main.ts says so on start.
 */
export function testClockFrom(env: NodeJS.ProcessEnv, host: string): Clock | undefined {
  const file = env.STACKDECK_TEST_CLOCK;
  if (!file) return undefined;
  if (env.NODE_ENV === 'production')
    throw new Error('STACKDECK_TEST_CLOCK is for tests: refused with NODE_ENV=production');
  if (!LOOPBACK.has(host))
    throw new Error(
      `STACKDECK_TEST_CLOCK is for tests: refused on HOST=${host} (loopback only: 127.0.0.1, ::1)`,
    );
  return () => Date.now() + offsetIn(file);
}

function offsetIn(file: string): number {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const offset = Number(text);
  // A clock that quietly ignored a bad file would make a test pass for the wrong reason.
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new Error(`${file}: a whole number of milliseconds to add, got "${text}"`);
  return offset;
}
