import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { applyConfig } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { OpError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  ORIGINS_FILE,
  PERIODIC_FILE,
  allowedOrigins,
  expand,
  originsText,
  parseAptDump,
  patternsFor,
  periodicText,
  settingsOf,
} from './aptconf';
import { type AutoUpdates, type AutoUpdatesState, ops } from './resource';

const ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };

/** apt's own reading of every file under /etc/apt (not only ours). */
async function aptView(): Promise<AutoUpdatesState> {
  const res = await run('apt-config', ['dump']);
  if (res.code !== 0) throw new OpError('failed', `apt-config failed: ${res.stderr.trim()}`);
  const view = parseAptDump(res.stdout);
  return { ...settingsOf(view), origins: view.origins };
}

async function codename(): Promise<string> {
  const text = await fs.readFile('/etc/os-release', 'utf8').catch(() => '');
  const name = /^VERSION_CODENAME="?([a-z]+)"?$/m.exec(text)?.[1];
  if (!name) throw new OpError('unsupported', 'The server does not name its Debian release');
  return name;
}

/**
 * unattended-upgrade's own dry run, up to the line where it says which origins it allows. That
 * line comes before it reads a package or fetches one, so the run is killed right there: it
 * never reaches the network and costs half a second instead of a full simulated upgrade (which
 * also ignores SIGTERM). Bounded by a time-out all the same.
 */
function dryRunOrigins(timeoutMs = 60_000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('unattended-upgrade', ['--dry-run', '--debug'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: ENV,
      shell: false,
    });
    let output = '';
    let done = false;
    const finish = (error: Error | null, origins?: string[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(origins!);
    };
    const timer = setTimeout(
      () =>
        finish(new OpError('check_failed', 'unattended-upgrade --dry-run did not answer in time')),
      timeoutMs,
    );
    const take = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-64 * 1024);
      const origins = /\n/.test(output) ? allowedOrigins(output) : null;
      if (origins && /Allowed origins are:.*\n/.test(output)) finish(null, origins);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) =>
      finish(
        new OpError(
          'unsupported',
          /ENOENT/.test(error.message)
            ? 'unattended-upgrades is not installed on this server'
            : error.message,
        ),
      ),
    );
    child.on('exit', () => {
      const last = output.trim().split('\n').slice(-2).join(' ');
      finish(new OpError('check_failed', `unattended-upgrade --dry-run stopped early: ${last}`));
    });
  });
}

/** The dry run allows exactly the origins asked for, and apt reads back the settings. */
async function check(next: AutoUpdates): Promise<void> {
  const want = expand(patternsFor(next), await codename()).sort();
  const got = (await dryRunOrigins()).sort();
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new OpError(
      'check_failed',
      `unattended-upgrade would allow ${got.join('; ') || 'no origin'}, not ${want.join('; ') || 'none'}: the change was undone`,
    );
  const view = await aptView();
  if (
    view.security_update !== next.security_update ||
    view.software_update !== next.software_update
  )
    throw new OpError(
      'check_failed',
      'apt reads other settings back than were written: the change was undone',
    );
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'autoupdates.get'() {
      return aptView();
    },

    /**
     * Both files in one config transaction: written, then checked by unattended-upgrade's own
     * dry run; if it allows other origins than asked (another file of the admin's sorted after
     * ours, say), both files get their old content back and the error says what it allowed.
     */
    async 'autoupdates.set'(changes) {
      const current = await aptView();
      const next: AutoUpdates = {
        security_update: changes.security_update ?? current.security_update,
        software_update: changes.software_update ?? current.software_update,
      };
      await applyConfig({
        program: 'unattended-upgrades',
        files: [
          { path: PERIODIC_FILE, content: periodicText(next), mode: 0o644 },
          { path: ORIGINS_FILE, content: originsText(next), mode: 0o644 },
        ],
        check: () => check(next),
      });
      return aptView();
    },
  },
  locks: { 'autoupdates.set': () => ['apt-config'] },
});
