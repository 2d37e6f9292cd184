import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ConfigFile, applyConfig } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitInstalled, unitRunning } from '../../agent/lib/init';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, lookupUser } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import { APP_LOG_DIR } from './names';
import {
  ACME_ROOT,
  CACHE_DIR,
  LOGROTATE_PATH,
  PREFIX,
  cacheDir,
  apachePath,
  appDir,
  docRoot,
  nginxPath,
  guardPoolPath,
  poolPath,
  snippetsDir,
  socketPath,
  sslDir,
  certbotLineage,
  stockPoolPath,
} from './appPaths';
import { placeholder } from './placeholder';
import { renderApache } from './renderApache';
import { renderLogrotate } from './renderLogrotate';
import { parseHeader, renderNginx } from './renderNginx';
import { renderGuardPool, renderPool } from './renderPhpPool';
import { removeNodeProgram } from '../nodejs/agentProgram';
import { KNOWN_PHP_VERSIONS, fpmPackage, installArgv, parsePolicy } from './phpPackages';
import { type AppSpec, ops } from './resource';

const NGINX_CONF_DIR = '/etc/nginx/conf.d';

/** PHP versions with an FPM installed: `/etc/php/<v>/fpm` and its binary. */
async function phpVersions(): Promise<string[]> {
  const dirs = await fs.readdir('/etc/php').catch(() => [] as string[]);
  const found: string[] = [];
  for (const v of dirs.filter((d) => /^\d\.\d$/.test(d)).sort()) {
    const fpm = await fs.stat(`/usr/sbin/php-fpm${v}`).catch(() => null);
    if (fpm?.isFile()) found.push(v);
  }
  return found;
}

const isSocket = async (file: string) =>
  (await fs.lstat(file).catch(() => null))?.isSocket() ?? false;

/** Starts a service that is installed but not running, or reloads one that runs. */
async function reload(unit: string): Promise<void> {
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
async function reloadNginx(): Promise<void> {
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
async function check(program: string, file: string, args: string[]) {
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
async function nginxCheck(domains: readonly string[]): Promise<void> {
  // Without -q: the warnings are what this is about.
  const res = await check('nginx', '/usr/sbin/nginx', ['-t']);
  for (const m of res.stderr.matchAll(/conflicting server name "([^"]+)"[^\n]*/g))
    if (domains.includes(m[1]!.toLowerCase()))
      throw opFieldError('domains', `${m[1]} is served by another site of the server: ${m[0]}`);
}

/**
 * Whether nginx serves the app's own server block for its primary name: a file of the ACME
 * folder that only the panel's vhosts serve (nginx's default server answers 404 for it), holding
 * the app's name. A 200 from the default site is no proof.
 */
function servedByNginx(domain: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: 80,
        path: `/.well-known/acme-challenge/${PROBE}`,
        headers: { host: domain, connection: 'close' },
        agent: false,
        timeout: 5000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(res.statusCode === 200 && body.trim() === 'stackdeck'));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** The probe file under the ACME folder (see servedByNginx). */
const PROBE = 'stackdeck-probe';

/**
 * Makes a directory as the app's user, so nothing the user owns (a link planted in its home)
 * can lead root to create or chown elsewhere: the user's own rights bound what happens.
 */
async function mkdirAsUser(user: PasswdEntry, dir: string, mode: string): Promise<void> {
  const res = await run('mkdir', ['-p', '-m', mode, '--', dir], { uid: user.uid, gid: user.gid });
  if (res.code !== 0)
    throw new OpError('failed', `Could not make ${dir} as ${user.name}: ${res.stderr.trim()}`);
}

/** Writes the placeholder page as the user, unless the folder has an index already. */
async function placeholderAsUser(user: PasswdEntry, root: string, spec: AppSpec): Promise<void> {
  const entries = await fs.readdir(root).catch(() => [] as string[]);
  if (entries.some((e) => /^index\.(php|html?)$/.test(e))) return;
  const page = placeholder(spec);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-page-'));
  try {
    await fs.chmod(tmp, 0o755);
    const source = path.join(tmp, page.file);
    await fs.writeFile(source, page.content, { mode: 0o644 });
    // cp -n: never over a file of the user's.
    await run('cp', ['-n', '--', source, path.join(root, page.file)], {
      uid: user.uid,
      gid: user.gid,
    });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** A directory of root's, the app's group may read (its logs). */
async function rootDir(dir: string, gid: number): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) throw new OpError('refused', `${dir} is not a directory`);
  await fs.chown(dir, 0, gid);
  await fs.chmod(dir, 0o750);
}

/**
 * The web server reads an app's static files through the app's group; its home must let the
 * group through (Debian makes homes 0700). Nothing else of another user's reaches them.
 */
async function letWebServerIn(user: PasswdEntry): Promise<void> {
  const groups = (await run('id', ['-nG', 'www-data'])).stdout.trim().split(/\s+/);
  if (!groups.includes(user.name)) {
    const res = await run('usermod', ['-aG', user.name, 'www-data']);
    if (res.code !== 0) throw new OpError('failed', `usermod: ${res.stderr.trim()}`);
  }
  const home = await fs.lstat(user.home).catch(() => null);
  if (!home?.isDirectory() || home.uid !== user.uid)
    throw opFieldError('sys_user', `The home of ${user.name} is missing or not theirs`);
  // Group: traverse only; others: nothing.
  await fs.chmod(user.home, (home.mode & 0o700) | 0o010);
}

/** Apache on loopback behind nginx, with FPM by proxy and no mod_php: made so once. */
async function prepareApache(): Promise<void> {
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

async function anyHybrid(except?: string): Promise<boolean> {
  const files = await fs.readdir('/etc/apache2/sites-enabled').catch(() => [] as string[]);
  return files.some((f) => f.startsWith(PREFIX) && f !== `${PREFIX}${except}.conf`);
}

/** Debian's stock pool of every version set aside, the guard in its place (renderPhpPool.ts). */
function stockPoolsAside(versions: string[]): ConfigFile[] {
  return versions.flatMap((v) => [
    { path: stockPoolPath(v), content: null },
    { path: guardPoolPath(v), content: renderGuardPool(v), mode: 0o644 },
  ]);
}

/** The pool files of this app in every PHP version: all but the wanted one go. */
async function poolsOf(name: string, keep: string | null): Promise<ConfigFile[]> {
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
async function fpmCheck(versions: string[]): Promise<void> {
  for (const v of versions)
    await check(`PHP-FPM ${v}`, `/usr/sbin/php-fpm${v}`, [
      '-t',
      '-y',
      `/etc/php/${v}/fpm/php-fpm.conf`,
    ]);
}

async function readApps() {
  const files = (await fs.readdir(NGINX_CONF_DIR).catch(() => [] as string[])).filter(
    (f) => f.startsWith(PREFIX) && f.endsWith('.conf'),
  );
  const apps = [];
  for (const file of files) {
    const text = await fs.readFile(path.join(NGINX_CONF_DIR, file), 'utf8').catch(() => '');
    const found = parseHeader(text);
    const name = file.slice(PREFIX.length, -'.conf'.length);
    apps.push({ ...found, name } as { name: string } & Record<string, unknown>);
  }
  return apps;
}

/**
 * Makes the server serve the app as specified, as one transaction; `extra` files (the app's
 * certificate, features/ssl) are written, checked and rolled back with it. The caller holds
 * the `webserver` lock.
 */
export async function applyApp(
  given: AppSpec,
  extra: ConfigFile[] = [],
): Promise<{ path: string }> {
  // A Node.js app (proxied to its port) has no PHP pool, whatever version its row holds.
  const spec = given.proxy_port === null ? given : { ...given, php_version: null };
  const user = await lookupUser(spec.user);
  if (!user) throw opFieldError('sys_user', `${spec.user} is not a user of the server`);
  if (user.uid < 1000) throw opFieldError('sys_user', `${spec.user} is a system account`);
  const versions = await phpVersions();
  if (spec.php_version !== null && !versions.includes(spec.php_version))
    throw opFieldError(
      'php_version',
      `PHP ${spec.php_version} is not installed on the server (it has ${versions.join(', ') || 'none'})`,
    );
  const hybrid = spec.php_version !== null && spec.stack_type === 'apache/nginx';
  if (hybrid) await prepareApache();

  await letWebServerIn(user);
  const dir = appDir(user.home, spec.name);
  await mkdirAsUser(user, `${user.home}/apps`, '0750');
  await mkdirAsUser(user, dir, '0750');
  await mkdirAsUser(user, docRoot(user.home, spec), '0750');
  await mkdirAsUser(user, `${user.home}/tmp`, '0700');
  await mkdirAsUser(user, `${user.home}/logs/php`, '0750');
  await placeholderAsUser(user, docRoot(user.home, spec), spec);
  await rootDir(APP_LOG_DIR, 0);
  // nginx's workers reopen the logs after a rotation (USR1), as www-data: each level must let
  // them through, or they go on writing into the rotated file for ever.
  await fs.chmod(path.dirname(APP_LOG_DIR), 0o755);
  await fs.chmod(APP_LOG_DIR, 0o755);
  await rootDir(`${APP_LOG_DIR}/${spec.name}`, user.gid);
  await fs.mkdir(snippetsDir(spec.name), { recursive: true, mode: 0o755 });
  await fs.mkdir(CACHE_DIR, { recursive: true, mode: 0o755 });
  // A cache turned off leaves no pages behind to come back stale when it is turned on.
  if (!spec.cache) await fs.rm(cacheDir(spec.name), { recursive: true, force: true });
  await fs.mkdir(`${ACME_ROOT}/.well-known/acme-challenge`, { recursive: true, mode: 0o755 });
  await fs.writeFile(`${ACME_ROOT}/.well-known/acme-challenge/${PROBE}`, 'stackdeck\n', {
    mode: 0o644,
  });

  const v = spec.php_version;
  const apacheThere = (await fs.stat('/usr/sbin/apache2ctl').catch(() => null)) !== null;
  const files: ConfigFile[] = [
    ...stockPoolsAside(versions),
    ...(await poolsOf(spec.name, v)),
    ...(v ? [{ path: poolPath(v, spec.name), content: renderPool(spec, user.home, v) }] : []),
    ...(apacheThere
      ? [
          {
            path: apachePath(spec.name),
            content: hybrid && v ? renderApache(spec, user.home, v) : null,
          },
        ]
      : []),
    { path: nginxPath(spec.name), content: renderNginx(spec, user.home), mode: 0o644 },
    { path: LOGROTATE_PATH, content: renderLogrotate(), mode: 0o644 },
    ...extra,
  ];
  const apache = hybrid || (apacheThere && (await anyHybrid()));
  await applyConfig({
    program: 'the web server',
    files,
    async check() {
      await fpmCheck(versions);
      if (apache) await check('Apache', '/usr/sbin/apache2ctl', ['configtest']);
      await nginxCheck(spec.domains);
    },
    async reload() {
      for (const version of versions) await reload(`php${version}-fpm`);
      if (apache) await reload('apache2');
      await reloadNginx();
    },
    async verify() {
      // nginx's new workers take a moment; a HUP that came while it was starting is lost,
      // so one more reload after a while. No proof in 10 s fails the change. The app's pool
      // must listen too: an init script may say "started" of an FPM that did not start, and
      // every PHP page would then be a 502.
      const pool = v ? socketPath(v, spec.name) : null;
      let served = false;
      for (let i = 0; i < 40; i++) {
        served = await servedByNginx(spec.domains[0]!);
        if (served && (pool === null || (await isSocket(pool)))) return;
        if (i === 8) await reloadNginx();
        await sleep(250);
      }
      throw new OpError(
        'failed',
        served
          ? `PHP-FPM ${v} does not run the app's pool after the reload (no ${pool})`
          : `nginx does not serve ${spec.domains[0]} after the reload`,
      );
    },
  });
  return { path: dir };
}

/**
 * Web apps: every file of an app is written and checked as one transaction (PHP-FPM's,
 * Apache's and nginx's own checks, then their reloads, then a request through nginx); any
 * failure puts every file back and reloads again. One lock for every web-server change: two
 * applies could each pass `nginx -t` alone and fail together.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'webapp.apply'(spec) {
      return applyApp(spec);
    },

    async 'webapp.remove'({ name, user: userName, files }) {
      const user = await lookupUser(userName);
      const apacheThere = (await fs.stat('/usr/sbin/apache2ctl').catch(() => null)) !== null;
      const versions = await phpVersions();
      const existed = (await fs.lstat(nginxPath(name)).catch(() => null)) !== null;
      // A Node.js app's program stops before its files go (features/nodejs); none: nothing.
      await removeNodeProgram(name);
      await applyConfig({
        program: 'the web server',
        files: [
          ...(await poolsOf(name, null)),
          ...(apacheThere ? [{ path: apachePath(name), content: null }] : []),
          { path: nginxPath(name), content: null },
        ],
        async check() {
          await fpmCheck(versions);
          await check('nginx', '/usr/sbin/nginx', ['-t', '-q']);
        },
        async reload() {
          for (const version of versions)
            if (await unitInstalled(`php${version}-fpm`, await hasSystemd()))
              await reload(`php${version}-fpm`);
          if (apacheThere && (await anyHybrid(name))) await reload('apache2');
          await reloadNginx();
        },
      });
      await fs.rm(snippetsDir(name), { recursive: true, force: true });
      await fs.rm(cacheDir(name), { recursive: true, force: true });
      // Its certificate goes with it: the files nginx read and certbot's lineage.
      await fs.rm(sslDir(name), { recursive: true, force: true });
      for (const lineage of certbotLineage(name))
        await fs.rm(lineage, { recursive: true, force: true });
      if (files) {
        await fs.rm(`${APP_LOG_DIR}/${name}`, { recursive: true, force: true });
        // As the user: whatever they planted in their home, rm cannot reach past their rights.
        if (user)
          await run('rm', ['-rf', '--', appDir(user.home, name)], {
            uid: user.uid,
            gid: user.gid,
            timeoutMs: 600_000,
          });
      }
      return { removed: existed };
    },

    async 'webapp.cachePurge'({ name }) {
      const dir = cacheDir(name);
      const entries = await fs.readdir(dir).catch(() => [] as string[]);
      for (const entry of entries)
        await fs.rm(path.join(dir, entry), { recursive: true, force: true });
      return { purged: entries.length };
    },

    async 'webapp.list'() {
      return readApps();
    },

    async 'php.available'() {
      const versions = await phpVersions();
      const policy = parsePolicy(
        (await run('apt-cache', ['policy', ...KNOWN_PHP_VERSIONS.map(fpmPackage)])).stdout,
      );
      return KNOWN_PHP_VERSIONS.flatMap((version) => {
        const found = policy.get(fpmPackage(version));
        const installed = versions.includes(version);
        if (!installed && !found?.candidate) return [];
        return [
          {
            version,
            installed,
            candidate: found?.candidate ?? null,
            source: found?.candidate ? found.source : null,
          },
        ];
      });
    },

    async 'php.install'({ version }) {
      if (!(KNOWN_PHP_VERSIONS as readonly string[]).includes(version))
        throw opFieldError(
          'version',
          `PHP ${version} is not a version the panel runs (5.6 to 8.4)`,
        );
      const policy = parsePolicy((await run('apt-cache', ['policy', fpmPackage(version)])).stdout);
      const found = policy.get(fpmPackage(version));
      if (!found?.candidate)
        throw opFieldError(
          'version',
          `No package source of the server offers PHP ${version}: Debian 12 carries 8.2; other versions come from the Sury repository (packages.sury.org/php), set up with its signing key`,
        );
      const res = await run('apt-get', installArgv(version), {
        timeoutMs: 900_000,
        env: { DEBIAN_FRONTEND: 'noninteractive', NEEDRESTART_MODE: 'l' },
      });
      if (res.code !== 0)
        throw new OpError(
          'failed',
          `apt-get could not install PHP ${version}: ${`${res.stderr}${res.stdout}`.trim().split('\n').slice(-3).join(' ')}`,
        );
      if (!(await phpVersions()).includes(version))
        throw new OpError(
          'failed',
          `PHP ${version} was installed but has no FPM at /usr/sbin/php-fpm${version}`,
        );
      await reload(`php${version}-fpm`);
      const systemd = await hasSystemd();
      return {
        version,
        running: await unitRunning(`php${version}-fpm`, systemd),
        source: found.source ?? 'other',
      };
    },

    async 'php.runtimes'() {
      const systemd = await hasSystemd();
      const result = [];
      for (const version of await phpVersions()) {
        const pkg = await run('dpkg-query', ['-W', '-f=${Version}', `php${version}-fpm`]);
        const source = /sury/i.test(pkg.stdout)
          ? ('sury' as const)
          : pkg.code === 0
            ? ('debian' as const)
            : ('other' as const);
        result.push({
          version,
          running: await unitRunning(`php${version}-fpm`, systemd),
          source,
        });
      }
      return result;
    },
  },
  locks: {
    // One package manager at a time, and no web-server change while PHP-FPM is installed.
    'php.install': () => ['apt', 'webserver'],
    'webapp.apply': () => ['webserver'],
    'webapp.remove': () => ['webserver', 'supervisor'],
    'webapp.cachePurge': () => ['webserver'],
  },
});
