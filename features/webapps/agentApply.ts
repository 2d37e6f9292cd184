/**
 * An app applied to its server: its folders, then every file of it (pools, vhosts, logrotate)
 * as one checked transaction, proven by a request through nginx.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ConfigFile, applyConfig } from '../../agent/lib/configTransaction';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { lookupUser } from '../../agent/lib/users';
import { APP_LOG_DIR } from './names';
import {
  ACME_ROOT,
  CACHE_DIR,
  LOGROTATE_PATH,
  apachePath,
  appDir,
  cacheDir,
  docRoot,
  nginxPath,
  poolPath,
  snippetsDir,
  socketPath,
} from './appPaths';
import { letWebServerIn, mkdirAsUser, placeholderAsUser, rootDir } from './agentAppDirs';
import {
  anyHybrid,
  check,
  fpmCheck,
  isSocket,
  nginxCheck,
  phpVersions,
  poolsOf,
  prepareApache,
  reload,
  reloadNginx,
  stockPoolsAside,
} from './agentWebServer';
import { renderApache } from './renderApache';
import { renderLogrotate } from './renderLogrotate';
import { renderNginx } from './renderNginx';
import { renderPool } from './renderPhpPool';
import type { AppSpec } from './resource';

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
