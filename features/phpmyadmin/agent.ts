import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  appUser,
  asUser,
  clearWebRoot,
  mustAsUser,
  releaseTree,
  writeAsUser,
} from '../installers/agentApi';
import { RELEASE_DIR } from '../installers/api';
import { sql } from '../databases/agentApi';
import { account, DB_USER, literal } from '../databases/api';
import { appDir, docRoot } from '../webapps/api';
import {
  PRIVATE_DIR,
  SSO_SCRIPT,
  type PmaPaths,
  configPath,
  patchVendorConfig,
  renderConfig,
  renderSsoScript,
  tempAccountExpiry,
  tempAccountName,
  tempDir,
  tokenDir,
} from './config';
import { ops } from './resource';

/** Writes a file as the user with its own mode (a token file: 0600). */
async function writeAsUserMode(user: PasswdEntry, file: string, content: string, mode: string) {
  await mustAsUser(user, 'install', ['-m', mode, '/dev/null', file]);
  await mustAsUser(user, 'tee', ['--', file], { input: content });
}

/** Read as the user: a link the user planted never shows root's files. */
const readAsUser = async (user: PasswdEntry, file: string) =>
  (await mustAsUser(user, 'cat', ['--', file])).stdout;

const isPma = async (dir: string) =>
  Boolean(
    (await fs.lstat(path.join(dir, 'libraries', 'vendor_config.php')).catch(() => null))?.isFile(),
  );

interface App {
  user: PasswdEntry;
  dir: string;
  root: string;
  paths: PmaPaths;
}

async function appOf(args: { user: string; app: string; web_root: string }): Promise<App> {
  const user = await appUser(args.user);
  const dir = appDir(user.home, args.app);
  const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
  if (root === dir)
    throw opFieldError('web_root', 'phpMyAdmin needs a web root inside the app (such as public)');
  return { user, dir, root, paths: { private: path.join(dir, PRIVATE_DIR) } };
}

/**
 * When the release is still where release.fetch unpacked it (`<app>/.stackdeck-release/<top
 * folder>`), its folder becomes the web root; the web root may hold only the app's placeholder.
 */
async function putReleaseInPlace({ user, dir, root }: App): Promise<void> {
  const tree = await releaseTree(dir, 'libraries/vendor_config.php');
  await clearWebRoot(user, root);
  await mustAsUser(user, 'mv', ['-T', '--', tree, root]);
  await mustAsUser(user, 'rm', ['-rf', '--', path.join(dir, RELEASE_DIR)]);
}

/** MariaDB's mysql_native_password hash: the password never appears in SQL text. */
const nativeHash = (password: string) =>
  `*${createHash('sha1').update(createHash('sha1').update(password).digest()).digest('hex').toUpperCase()}`;

/** Drops every temporary account past its expiry (the expiry is in its name). */
async function dropExpired(): Promise<number> {
  const names = (
    await sql("SELECT User FROM mysql.user WHERE Host = 'localhost' AND User LIKE 'sdsso\\_%';")
  ).map(([name]) => name!);
  const now = Date.now() / 1000;
  const gone = names.filter((name) => {
    const expiry = tempAccountExpiry(name);
    return expiry !== null && expiry <= now;
  });
  if (gone.length)
    await sql(gone.map((name) => `DROP USER IF EXISTS ${account(name)};`).join('\n'));
  return gone.length;
}

/** A privilege grant as SHOW GRANTS prints it (no column lists, proxies or roles). */
const GRANT_LINE =
  /^GRANT ([A-Z][A-Z ,]*) ON ((?:`(?:[^`]|``)+`|\*)\.(?:`(?:[^`]|``)+`|\*)) TO `([A-Za-z0-9_]+)`@`localhost`(?: WITH GRANT OPTION)?$/;

/** The user's grants, each as `<privileges> ON <target>` to give another account. */
async function grantsOf(name: string): Promise<string[]> {
  const lines = (await sql(`SHOW GRANTS FOR ${account(name)};`)).map(([line]) => line!);
  const grants: string[] = [];
  for (const line of lines) {
    const m = GRANT_LINE.exec(line);
    if (!m || m[3] !== name) continue;
    const [, privileges, target] = m;
    if (target === '*.*' && privileges === 'USAGE') continue;
    grants.push(`${privileges!} ON ${target!}`);
  }
  return grants;
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'pma.configure'(args) {
      const app = await appOf(args);
      const { user, root, paths } = app;
      if (!(await isPma(root))) await putReleaseInPlace(app);
      for (const dir of [paths.private, tempDir(paths), tokenDir(paths)]) {
        await mustAsUser(user, 'mkdir', ['-p', '-m', '0700', '--', dir]);
        await mustAsUser(user, 'chmod', ['0700', '--', dir]);
      }
      await writeAsUser(
        user,
        configPath(paths),
        renderConfig(paths, randomBytes(32).toString('hex')),
      );
      const vendorFile = path.join(root, 'libraries', 'vendor_config.php');
      const patched = patchVendorConfig(await readAsUser(user, vendorFile), paths);
      if (patched === null)
        throw new OpError(
          'failed',
          `${vendorFile} has no configFile and tempDir: not phpMyAdmin 5?`,
        );
      await writeAsUser(user, vendorFile, patched);
      await writeAsUser(user, path.join(root, SSO_SCRIPT), renderSsoScript(paths));
      const versionFile = await readAsUser(
        user,
        path.join(root, 'libraries', 'classes', 'Version.php'),
      );
      const version = /VERSION = '([0-9A-Za-z.+~_-]+)'/.exec(versionFile)?.[1] ?? '';
      return { version, config: configPath(paths) };
    },

    async 'pma.signon'(args) {
      const dropped = await dropExpired();
      const { user, paths } = await appOf(args);
      const tokens = tokenDir(paths);
      const held = await fs.lstat(tokens).catch(() => null);
      if (!held?.isDirectory() || held.uid !== user.uid)
        throw new OpError('conflict', 'phpMyAdmin is not set up in this app yet');
      const exists = await sql(
        `SELECT 1 FROM mysql.user WHERE User = ${literal(args.db_user, DB_USER)} AND Host = 'localhost';`,
      );
      if (!exists.length)
        throw opFieldError('dbuser', `No database user ${args.db_user} in the server's MariaDB`);
      const grants = await grantsOf(args.db_user);

      const now = Date.now() / 1000;
      const name = tempAccountName(now + args.account_ttl, randomBytes(6).toString('hex'));
      const password = randomBytes(24).toString('base64url');
      const who = account(name);
      await sql(
        [
          `CREATE USER ${who} IDENTIFIED BY PASSWORD '${nativeHash(password)}';`,
          ...grants.map((grant) => `GRANT ${grant} TO ${who};`),
        ].join('\n'),
      );
      // Dropped at its expiry while this agent runs; any later signon drops it otherwise.
      setTimeout(
        () => void dropExpired().catch(() => undefined),
        (args.account_ttl + 1) * 1000,
      ).unref();

      // Token files nobody took (and claimed leftovers) do not pile up.
      await asUser(user, 'find', [
        tokens,
        '-maxdepth',
        '1',
        '-type',
        'f',
        '-mmin',
        '+15',
        '-delete',
      ]);
      const token = randomBytes(32).toString('base64url');
      const expires = Math.floor(now) + args.ttl;
      const file = path.join(tokens, `${createHash('sha256').update(token).digest('hex')}.json`);
      await writeAsUserMode(
        user,
        file,
        JSON.stringify({ user: name, password, exp: expires }),
        '0600',
      );
      return { token, account: name, expires_at: new Date(expires * 1000).toISOString(), dropped };
    },
  },
  locks: {
    'pma.configure': (args) => [`webapp:${args.app}`],
    'pma.signon': () => ['mariadb'],
  },
});
