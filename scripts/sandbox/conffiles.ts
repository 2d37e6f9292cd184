import { existsSync, mkdtempSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { run, runOk } from './run';

/**
 * A sandbox's /etc is the host's. Machine images sometimes delete a package's stock config
 * files and put their own in place (this one replaced MariaDB's /etc/mysql with a single
 * my.cnf: the init script's /etc/mysql/debian-start is gone, so `service mariadb start`
 * fails). A sandbox should look like a freshly installed Debian server, so deps keeps the
 * package's own copies of the missing files here, and a sandbox's first boot puts them back
 * inside (cp --no-clobber: only what is missing, only in the sandbox).
 */
export const STOCK_DIR = '/var/cache/stackdeck-sandbox/stock';

/** Packages whose config files a sandbox's services read. */
const CONFIG_PACKAGES = [
  'openssh-server',
  'nginx-common',
  'php8.2-fpm',
  'php8.2-common',
  'mariadb-server',
  'mariadb-client',
  'mariadb-common',
  'mysql-common',
  'supervisor',
  'cron',
  'pure-ftpd-common',
  'postfix',
  'dovecot-core',
  'dovecot-imapd',
  'quota',
];

interface Missing {
  pkg: string;
  version: string;
  files: string[];
}

/** Config files dpkg says a package installed that are neither on the host nor in the cache. */
async function missingConffiles(): Promise<Missing[]> {
  const res = await run('dpkg-query', [
    '-W',
    '-f=${Package}\t${Version}\t${db:Status-Status}\n${Conffiles}\n',
    ...CONFIG_PACKAGES,
  ]);
  const result: Missing[] = [];
  let current: Missing | undefined;
  for (const line of res.stdout.split('\n')) {
    const head = line.split('\t');
    if (head.length === 3) {
      current =
        head[2] === 'installed' ? { pkg: head[0]!, version: head[1]!, files: [] } : undefined;
      if (current) result.push(current);
      continue;
    }
    // " /etc/path md5 [obsolete]": an obsolete one is no longer shipped.
    const [path, , flag] = line.trim().split(' ');
    if (current && path?.startsWith('/') && flag !== 'obsolete') {
      if (!existsSync(path) && !existsSync(join(STOCK_DIR, path))) current.files.push(path);
    }
  }
  return result.filter((m) => m.files.length > 0);
}

/** Fetches the installed version's .deb (apt-get download) and keeps the missing files. */
export async function cacheStockConffiles(
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const missing = await missingConffiles();
  if (missing.length === 0) return [];
  const tmp = mkdtempSync('/var/tmp/stackdeck-stock-');
  const kept: string[] = [];
  try {
    for (const m of missing) {
      log(`keeping the stock ${m.files.join(' ')} of ${m.pkg}`);
      const dl = join(tmp, m.pkg);
      await mkdir(dl);
      // _apt cannot write into root's 0700 temp dir; apt-get says so and falls back to root.
      await runOk('apt-get', ['download', '-qq', `${m.pkg}=${m.version}`], { cwd: dl });
      const [deb] = (await readdir(dl)).filter((f) => f.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download ${m.pkg}=${m.version} gave no .deb`);
      const tree = join(dl, 'tree');
      await runOk('dpkg-deb', ['-x', join(dl, deb), tree]);
      for (const file of m.files) {
        const to = join(STOCK_DIR, file);
        await mkdir(dirname(to), { recursive: true });
        await copyFile(join(tree, file), to);
        kept.push(file);
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return kept;
}
