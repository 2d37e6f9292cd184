import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitRunning } from '../../agent/lib/init';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { confdName, modulesIn } from './modules';
import { EXTENSION_NAME, ops } from './resource';

const etc = (version: string) => `/etc/php/${version}`;
const fpmBinary = (version: string) => `/usr/sbin/php-fpm${version}`;

/** The version's FPM is installed: its binary and its configuration folder. */
async function checkVersion(version: string): Promise<void> {
  const binary = await fs.stat(fpmBinary(version)).catch(() => null);
  const conf = await fs.stat(`${etc(version)}/fpm/conf.d`).catch(() => null);
  if (!binary?.isFile() || !conf?.isDirectory())
    throw opFieldError('version', `PHP ${version} (its FPM) is not installed on this server`);
}

/** `calendar.ini` in mods-available -> calendar. */
async function available(version: string): Promise<string[]> {
  const names = await fs.readdir(`${etc(version)}/mods-available`).catch(() => [] as string[]);
  return names
    .filter((n) => n.endsWith('.ini'))
    .map((n) => n.slice(0, -4))
    .filter((n) => EXTENSION_NAME.test(n))
    .sort();
}

/**
 * `20-calendar.ini` in fpm/conf.d, a link as phpenmod makes it (into mods-available) -> calendar.
 * A plain file there is the admin's own and loads whatever it says: not read as an extension.
 */
async function enabled(version: string): Promise<string[]> {
  const dir = `${etc(version)}/fpm/conf.d`;
  const found: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const name = confdName(entry.name);
    if (!name || !entry.isSymbolicLink()) continue;
    // A dangling link (its package removed) loads nothing.
    if (await fs.stat(`${dir}/${entry.name}`).catch(() => null)) found.push(name);
  }
  return found.sort();
}

/** phpenmod / phpdismod for the FPM only; their own message when they refuse. */
async function switchFpm(version: string, name: string, on: boolean): Promise<void> {
  const program = on ? 'phpenmod' : 'phpdismod';
  const res = await run(program, ['-v', version, '-s', 'fpm', name]);
  // phpenmod exits 0 and only warns when the module has no ini file: read the result instead.
  const now = (await enabled(version)).includes(name);
  if (res.code !== 0 || now !== on)
    throw new OpError(
      'failed',
      `${program} ${name}: ${(res.stderr || res.stdout).trim() || `exit ${res.code}`}`,
    );
}

/** The last lines a program said, for the user. */
const said = (res: { stdout: string; stderr: string }) =>
  `${res.stderr}\n${res.stdout}`.trim().split('\n').slice(-5).join('\n');

/**
 * The FPM's own check of its configuration (`php-fpmX.Y -t`) and, for an extension switched on,
 * that it loads: `-t` passes with an extension whose library cannot load (a warning only), so
 * `php-fpmX.Y -m` must list it. Returns what went wrong, or null.
 */
async function checkFpm(version: string, name: string, on: boolean): Promise<string | null> {
  const test = await run(fpmBinary(version), ['-t', '-y', `${etc(version)}/fpm/php-fpm.conf`]);
  if (test.code !== 0) return `php-fpm${version} -t refused the change: ${said(test)}`;
  if (!on) return null;
  const modules = await run(fpmBinary(version), ['-m']);
  if (modules.code === 0 && modulesIn(modules.stdout).has(name)) return null;
  // Its warnings (a library that cannot load) go to stderr; the list to stdout.
  const why = modules.stderr.trim().split('\n').slice(-3).join('\n');
  return `PHP-FPM ${version} did not load ${name}: ${why || `it is not in php-fpm${version} -m`}`;
}

/** Reloads the version's FPM when it runs (a stopped one reads the change when it starts). */
async function reloadFpm(version: string): Promise<void> {
  const unit = `php${version}-fpm`;
  const systemd = await hasSystemd();
  if (!(await unitRunning(unit, systemd))) return;
  const res = await unitAction(unit, 'reload', systemd);
  if (res.code !== 0) throw new OpError('reload_failed', `${unit} reload: ${res.output}`);
}

/**
 * The extensions of a PHP version, switched for PHP-FPM. Arguments are allowlisted (version
 * `^\d\.\d$`, the ini name `^[a-z][a-z0-9_]{1,31}$`) and passed as argv.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'easyphp.state'({ version }) {
      await checkVersion(version);
      return { available: await available(version), enabled: await enabled(version) };
    },

    async 'easyphp.set'({ version, name, enabled: on }) {
      await checkVersion(version);
      if (!(await available(version)).includes(name))
        throw opFieldError(
          'extension',
          `${name} is not installed for PHP ${version} on this server (no ${name}.ini in mods-available)`,
        );
      if ((await enabled(version)).includes(name) === on) return { enabled: on, changed: false };
      await switchFpm(version, name, on);
      const problem = await checkFpm(version, name, on);
      if (problem) {
        // Put the extension back as it was; the FPM keeps running on the old configuration.
        await switchFpm(version, name, !on).catch(() => undefined);
        throw new OpError('check_failed', `${problem}; the change was undone`);
      }
      await reloadFpm(version);
      return { enabled: on, changed: true };
    },
  },
  locks: {
    // The FPM's configuration and its reload, shared with the web apps' changes.
    'easyphp.set': () => ['webserver'],
  },
});
