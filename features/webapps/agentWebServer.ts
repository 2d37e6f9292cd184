/**
 * The web server's programs as web apps drive them: which PHP versions have an FPM, each
 * program's own check of its configuration, and their reloads; Apache made ready to serve
 * behind nginx.
 */
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConfigFile } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitRunning } from '../../agent/lib/init';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { PREFIX, guardPoolPath, poolPath, stockPoolPath } from './appPaths';
import { renderGuardPool } from './renderPhpPool';

/** PHP versions with an FPM installed: `/etc/php/<v>/fpm` and its binary. */
export async function phpVersions(): Promise<string[]> {
  const dirs = await fs.readdir('/etc/php').catch(() => [] as string[]);
  const found: string[] = [];
  for (const v of dirs.filter((d) => /^\d\.\d$/.test(d)).sort()) {
    const fpm = await fs.stat(`/usr/sbin/php-fpm${v}`).catch(() => null);
    if (fpm?.isFile()) found.push(v);
  }
  return found;
}

export const isSocket = async (file: string) =>
  (await fs.lstat(file).catch(() => null))?.isSocket() ?? false;

/** Starts a service that is installed but not running, or reloads one that runs. */
export async function reload(unit: string): Promise<void> {
  const systemd = await hasSystemd();
  const running = await unitRunning(unit, systemd);
  const res = await unitAction(unit, running ? 'reload' : 'start', systemd);
  if (res.code !== 0)
    throw new OpError('reload_failed', `${unit} ${running ? 'reload' : 'start'}: ${res.output}`);
}

/** The processes whose parent is `parent` (nginx's workers under its master). */
async function childrenOf(parent: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: the comm may hold spaces, so read after its last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) found.push(Number(entry));
  }
  return found;
}

/**
 * Reloads nginx and waits until the workers of the old configuration have left (up to 10 s):
 * until then a request may still meet one, and the app would seem not there yet.
 */
export async function reloadNginx(): Promise<void> {
  const master = Number((await fs.readFile('/run/nginx.pid', 'utf8').catch(() => '')).trim());
  const before = master > 0 ? await childrenOf(master) : [];
  await reload('nginx');
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const alive = await Promise.all(
      before.map((pid) =>
        fs.stat(`/proc/${pid}`).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (!alive.some(Boolean)) return;
    await sleep(50);
  }
}

/** Runs a program's own check of its configuration; its words when it refuses. */
export async function check(program: string, file: string, args: string[]) {
  const res = await run(file, args, { timeoutMs: 60_000 });
  if (res.code !== 0) {
    const said = `${res.stderr}${res.stdout}`.trim().split('\n').slice(-4).join(' ');
    if (/conflicting server name/.test(said)) throw opFieldError('domains', said);
    throw new OpError('check_failed', `${program} refused the configuration: ${said}`);
  }
  return res;
}

/**
 * nginx's own check, and its warning that a name of the app is served elsewhere too (a site
 * the panel did not write): nginx would ignore one of the two, so the app's domain is refused
 * in nginx's words rather than half-served.
 */
export async function nginxCheck(domains: readonly string[]): Promise<void> {
  // Without -q: the warnings are what this is about.
  const res = await check('nginx', '/usr/sbin/nginx', ['-t']);
  for (const m of res.stderr.matchAll(/conflicting server name "([^"]+)"[^\n]*/g))
    if (domains.includes(m[1]!.toLowerCase()))
      throw opFieldError('domains', `${m[1]} is served by another site of the server: ${m[0]}`);
}

/** Apache on loopback behind nginx, with FPM by proxy and no mod_php: made so once. */
export async function prepareApache(): Promise<void> {
  const installed = await fs.stat('/usr/sbin/apache2ctl').catch(() => null);
  if (!installed) throw opFieldError('stack_type', 'Apache2 is not installed on the server');
  // apache2ctl makes its lock folder under /run/lock, which a minimal /run may lack.
  await fs.mkdir('/run/lock', { recursive: true, mode: 0o1777 });
  const ports = `# Written by Stackdeck: Apache serves behind nginx, on loopback only.\nListen 127.0.0.1:8080\n`;
  const current = await fs.readFile('/etc/apache2/ports.conf', 'utf8').catch(() => '');
  if (current !== ports) await fs.writeFile('/etc/apache2/ports.conf', ports);
  const mods = await fs.readdir('/etc/apache2/mods-enabled').catch(() => [] as string[]);
  const off = mods
    .filter((m) => /^(php\d\.\d|mpm_prefork|mpm_worker)\.load$/.test(m))
    .map((m) => m.replace(/\.load$/, ''));
  if (off.length) await run('a2dismod', ['-q', '-f', ...off]);
  // Debian's handler sends .php/.phtml/.phar of every site to the stock pool: off.
  const confs = await fs.readdir('/etc/apache2/conf-enabled').catch(() => [] as string[]);
  const stock = confs
    .filter((c) => /^php\d\.\d-fpm\.conf$/.test(c))
    .map((c) => c.replace(/\.conf$/, ''));
  if (stock.length) await run('a2disconf', ['-q', ...stock]);
  const res = await run('a2enmod', [
    '-q',
    'mpm_event',
    'proxy_fcgi',
    'setenvif',
    'rewrite',
    'remoteip',
    'headers',
    'expires',
  ]);
  if (res.code !== 0) throw new OpError('failed', `a2enmod: ${res.stderr.trim()}`);
  await run('a2dissite', ['-q', '000-default']);
}

export async function anyHybrid(except?: string): Promise<boolean> {
  const files = await fs.readdir('/etc/apache2/sites-enabled').catch(() => [] as string[]);
  return files.some((f) => f.startsWith(PREFIX) && f !== `${PREFIX}${except}.conf`);
}

/** Debian's stock pool of every version set aside, the guard in its place (renderPhpPool.ts). */
export function stockPoolsAside(versions: string[]): ConfigFile[] {
  return versions.flatMap((v) => [
    { path: stockPoolPath(v), content: null },
    { path: guardPoolPath(v), content: renderGuardPool(v), mode: 0o644 },
  ]);
}

/** The pool files of this app in every PHP version: all but the wanted one go. */
export async function poolsOf(name: string, keep: string | null): Promise<ConfigFile[]> {
  const files: ConfigFile[] = [];
  for (const v of await phpVersions())
    if (v !== keep) files.push({ path: poolPath(v, name), content: null });
  return files;
}

/**
 * Each version's FPM checks its own configuration, named: a binary's compiled-in default may be
 * another version's file (a runtime built from another), and then the pools written for this
 * version would go unchecked.
 */
export async function fpmCheck(versions: string[]): Promise<void> {
  for (const v of versions)
    await check(`PHP-FPM ${v}`, `/usr/sbin/php-fpm${v}`, [
      '-t',
      '-y',
      `/etc/php/${v}/fpm/php-fpm.conf`,
    ]);
}
