import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitInstalled, unitRunning } from '../../agent/lib/init';
import { OpError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { destinationOf } from './agentDest';
import type { DebianApp } from './urls';

/**
 * The Debian source: an app's copy built from Debian's own package on the server. apt-get
 * installs the package when it is missing (it checks the archive's signatures); the copy is
 * then made by the app's user, with tar, as the project's own archive lays it out: Debian's
 * links into /usr/share are followed, and what points into /etc or /var/lib for the system-wide
 * install (its config, its .htaccess) stays out, so the copy is the app's alone. The
 * installers then write the app's config as for a downloaded release.
 */
interface Recipe {
  /** The packages to have, the first the one whose version is reported. */
  packages: readonly string[];
  /**
   * What debconf must know before a non-interactive install: no database, no web server. An
   * empty `reconfigure-webserver` is "none": the word `none` is no choice of the list, and
   * phpMyAdmin's postinst then configures Apache as for any web server not lighttpd.
   */
  preseed?: string;
  /** Apache's global config of the package (/phpmyadmin on every site), to keep disabled. */
  apacheConf?: string;
  /** tar's arguments that read the package's files (`-C dir member...`, excludes, renames). */
  tar: readonly string[];
  /** A file the copy must hold: the package's layout is the one expected. */
  marker: string;
}

const RECIPES: Record<DebianApp, Recipe> = {
  wordpress: {
    packages: ['wordpress', 'wordpress-theme-twentytwentythree'],
    tar: [
      '--exclude=wordpress/wp-config.php',
      '--exclude=wordpress/.htaccess',
      '-C',
      '/usr/share',
      'wordpress',
    ],
    marker: 'wordpress/wp-settings.php',
  },
  phpmyadmin: {
    packages: ['phpmyadmin'],
    preseed:
      'phpmyadmin phpmyadmin/dbconfig-install boolean false\n' +
      'phpmyadmin phpmyadmin/reconfigure-webserver multiselect\n',
    apacheConf: 'phpmyadmin',
    tar: ['--exclude=phpmyadmin/config.inc.php', '-C', '/usr/share', 'phpmyadmin'],
    marker: 'phpmyadmin/libraries/vendor_config.php',
  },
  roundcube: {
    packages: ['roundcube-core', 'roundcube-mysql'],
    // Its default is "apache2, lighttpd", and a reload of them.
    preseed:
      'roundcube-core roundcube/dbconfig-install boolean false\n' +
      'roundcube-core roundcube/reconfigure-webserver multiselect\n' +
      'roundcube-core roundcube/restart-webserver boolean false\n',
    apacheConf: 'roundcube',
    // Roundcube's tree as upstream ships it: its web folder (Debian's /var/lib/roundcube, links
    // into /usr/share/roundcube) and its defaults in config/ (Debian keeps them in /etc).
    tar: [
      '--transform=s,^defaults\\.inc\\.php$,config/defaults.inc.php,',
      '--transform=s,^,roundcubemail/,',
      '-C',
      '/var/lib/roundcube',
      'index.php',
      'program',
      'public_html',
      'plugins',
      'skins',
      'SQL',
      '-C',
      '/etc/roundcube',
      'defaults.inc.php',
    ],
    marker: 'roundcubemail/program/include/iniset.php',
  },
};

const APT_ENV = { DEBIAN_FRONTEND: 'noninteractive', NEEDRESTART_MODE: 'l' };

const tail = (text: string) => text.trim().split('\n').slice(-3).join(' ');

async function installed(pkg: string): Promise<boolean> {
  const res = await run('dpkg-query', ['-W', '-f=${db:Status-Status}', pkg]);
  return res.code === 0 && res.stdout.trim() === 'installed';
}

/**
 * Sets the answers debconf must know. A server whose package was purged after an earlier
 * preseed can hold the preseed's dummy template without its question (the purge removes the
 * question only); debconf-set-selections then refuses with "Cannot find a question". debconf's
 * own repair (fix_db.pl drops templates that claim missing questions) mends that, once.
 */
async function preseed(selections: string): Promise<void> {
  let set = await run('debconf-set-selections', [], { input: selections });
  if (set.code !== 0 && /Cannot find a question/.test(set.stderr)) {
    const fix = await run('/usr/share/debconf/fix_db.pl', []);
    if (fix.code !== 0) throw new OpError('failed', `debconf fix_db.pl: ${tail(fix.stderr)}`);
    set = await run('debconf-set-selections', [], { input: selections });
  }
  if (set.code !== 0) throw new OpError('failed', `debconf-set-selections: ${tail(set.stderr)}`);
}

/** Installs what is missing of the recipe's packages; true when something was installed. */
async function ensurePackages(recipe: Recipe): Promise<boolean> {
  const missing: string[] = [];
  for (const pkg of recipe.packages) if (!(await installed(pkg))) missing.push(pkg);
  if (missing.length === 0) return false;
  if (recipe.preseed) await preseed(recipe.preseed);
  const res = await run(
    'apt-get',
    [
      'install',
      '-y',
      '-q',
      '--no-install-recommends',
      '-o',
      'Dpkg::Options::=--force-confdef',
      '-o',
      'Dpkg::Options::=--force-confold',
      ...missing,
    ],
    { timeoutMs: 900_000, env: APT_ENV },
  );
  if (res.code !== 0)
    throw new OpError(
      'failed',
      `apt-get could not install ${missing.join(' ')}: ${tail(res.stderr + res.stdout)}`,
    );
  if (recipe.apacheConf) await keepApacheConfOff(recipe.apacheConf);
  return true;
}

/**
 * The installers serve the app as an app of its own: never Debian's system-wide copy at an
 * alias on every Apache site. The preseed keeps the package's postinst away from Apache; should
 * a version enable its config all the same (and reload Apache with it), it is disabled again
 * and a running Apache reloaded, so the alias is not served a moment longer.
 */
async function keepApacheConfOff(conf: string): Promise<void> {
  const link = `/etc/apache2/conf-enabled/${conf}.conf`;
  if (!(await fs.lstat(link).catch(() => null))) return;
  await fs.unlink(link);
  const systemd = await hasSystemd();
  if (!(await unitInstalled('apache2', systemd)) || !(await unitRunning('apache2', systemd)))
    return;
  const res = await unitAction('apache2', 'reload', systemd);
  if (res.code !== 0)
    throw new OpError(
      'failed',
      `${conf}'s Apache config is disabled, but apache2 reload: ${tail(res.output)}`,
    );
}

/** tar as the user: exit 1 is "some files differ" (a dangling Debian link left out). */
async function tarAs(user: PasswdEntry, args: string[]) {
  const res = await run('tar', args, { uid: user.uid, gid: user.gid, timeoutMs: 600_000 });
  if (res.code > 1) throw new OpError('failed', `tar: ${tail(res.stderr)}`);
}

export async function debianCopy(args: { app: DebianApp; dest_user: string; dest_dir: string }) {
  const recipe = RECIPES[args.app];
  const { user, dest, parent } = await destinationOf(args.dest_user, args.dest_dir);
  const didInstall = await ensurePackages(recipe);
  const version = (await run('dpkg-query', ['-W', '-f=${Version}', recipe.packages[0]!])).stdout;

  const as = { uid: user.uid, gid: user.gid };
  const made = await run('mktemp', ['-d', '-p', parent, '.stackdeck-debian.XXXXXX'], as);
  const tmp = made.stdout.trim();
  if (made.code !== 0 || !tmp) throw new OpError('failed', `mktemp: ${made.stderr.trim()}`);
  const archive = path.join(tmp, 'copy.tar');
  const tree = path.join(tmp, 'tree');
  try {
    // Read by the user: the copy holds only what any user of the server may read.
    await tarAs(user, [
      '--create',
      '--file',
      archive,
      '--dereference',
      '--hard-dereference',
      '--ignore-failed-read',
      '--warning=no-failed-read',
      ...recipe.tar,
    ]);
    const mk = await run('mkdir', ['-m', '0700', '--', tree], as);
    if (mk.code !== 0) throw new OpError('failed', `mkdir: ${mk.stderr.trim()}`);
    await tarAs(user, [
      '--extract',
      '--file',
      archive,
      '-C',
      tree,
      '--no-same-owner',
      '--no-same-permissions',
    ]);
    if (!(await fs.lstat(path.join(tree, recipe.marker)).catch(() => null))?.isFile())
      throw new OpError('failed', `Debian's package ${recipe.packages[0]} has no ${recipe.marker}`);
    const moved = await run('mv', ['-T', '--', tree, dest], as);
    if (moved.code !== 0) throw new OpError('failed', `mv: ${moved.stderr.trim()}`);
  } finally {
    await run('rm', ['-rf', '--', tmp], as);
  }
  return { path: dest, version: version.trim(), installed: didInstall };
}
