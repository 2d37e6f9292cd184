import { access, readdir, unlink, writeFile } from 'node:fs/promises';
import { cacheStockConffiles } from './conffiles';
import { run, runOk } from './run';

/**
 * Debian packages a sandbox needs on the host: the services a sandbox runs (its root is an
 * overlay of the host's root, so what it runs must be installed here), and the tools the
 * launcher and the tests use.
 */
export const SANDBOX_PACKAGES = [
  // Launcher: namespaces, mounts, loop devices, ext4 images, the panel forward.
  'util-linux',
  'mount',
  'iproute2',
  'e2fsprogs',
  'socat',
  'procps',
  'curl',
  'ca-certificates',
  'ssl-cert',
  // Services inside a sandbox, started through their init.d scripts.
  'openssh-server',
  'openssh-client',
  'nginx',
  'php8.2-fpm',
  // The hybrid stack's Apache (on loopback behind nginx); started by the agent, not at boot.
  'apache2',
  'mariadb-server',
  'mariadb-client',
  'supervisor',
  'cron',
  'pure-ftpd',
  'postfix',
  'dovecot-imapd',
  // Mail (issue 25): LMTP delivery, Sieve vacation (and ManageSieve for Roundcube's filters),
  // DKIM signing per domain, pcre maps; the agent installs them on a real server.
  'postfix-pcre',
  'dovecot-lmtpd',
  'dovecot-sieve',
  'dovecot-managesieved',
  'opendkim',
  'opendkim-tools',
  // The mail tests' outside world: swaks (its --tls needs Net::SSLeay, only a Recommends).
  'swaks',
  'libnet-ssleay-perl',
  'nftables',
  // Firewall attempt limits (issue 12); started by the agent when the firewall is on, not at boot.
  'fail2ban',
  // fail2ban reads the journal on a systemd server and a syslog file elsewhere; a sandbox has no
  // journald, so its test starts rsyslogd itself (Debian 12 ships it with no init.d script, so
  // no sandbox boots it) to get /var/log/auth.log.
  'python3-systemd',
  'rsyslog',
  // Automatic updates (issue 12): the agent writes its apt configuration and runs its dry run.
  'unattended-upgrades',
  // Git deploys (issue 12): clones as the app's user; git-shell is the test's git server.
  'git',
  'quota',
  // SSL: certbot issues certificates; pebble (and its challenge server) is the ACME CA of tests.
  'certbot',
  'pebble',
  // One-click apps whose code Debian carries: the tests build the catalogue's archives from
  // them (this machine has no internet). Their own database set-up is preseeded off below.
  'wordpress',
  'wordpress-theme-twentytwentythree',
  'phpmyadmin',
  'roundcube-core',
  'roundcube-mysql',
  'nodejs',
  // Release archives: the agent unpacks zip and tar.bz2 ones; the tests build them.
  'unzip',
  'bzip2',
  'zip',
  // Backups (issue 24): the agent inside a sandbox runs the host's restic (its root overlays the
  // host's), and tests/system/backups-restic.test.ts runs it on the host. Debian's 0.14: no
  // --stdin-from-command, exit 3 for a partial snapshot (features/backups/agentRestic*.ts).
  'restic',
] as const;

const POLICY = '/usr/sbin/policy-rc.d';
const APT_ENV = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', NEEDRESTART_MODE: 'l' };

/** Packages of the list that dpkg does not report as installed. */
export async function missingPackages(
  packages: readonly string[] = SANDBOX_PACKAGES,
): Promise<string[]> {
  // dpkg-query exits 1 when a name is unknown; its stdout still lists the known ones.
  const res = await run('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...packages]);
  const installed = new Set(
    res.stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed'))
      .map((line) => line.split(' ')[0]),
  );
  return packages.filter((p) => !installed.has(p));
}

/**
 * Installs what is missing, with no service started on the host: invoke-rc.d asks
 * policy-rc.d, and exit 101 means "action forbidden". A policy file that was already there is
 * left as it was; one we write is removed afterwards.
 */
export async function installDeps(
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const missing = await missingPackages();
  if (missing.length > 0) await aptInstall(missing, log);
  await cacheDebianSourceDebs(log);
  await disableAppAliases(log);
  await keepOffAtBoot(log);
  await cacheStockConffiles(log);
  return missing;
}

async function aptInstall(missing: string[], log: (line: string) => void): Promise<void> {
  log(`installing ${missing.join(' ')}`);
  const ownPolicy = !(await exists(POLICY));
  if (ownPolicy)
    await writeFile(POLICY, '#!/bin/sh\n# stackdeck sandbox deps: no service starts\nexit 101\n', {
      mode: 0o755,
    });
  try {
    // Postfix asks what kind of mail system this is; a local-only one needs no relay.
    await runOk('debconf-set-selections', [], {
      input:
        'postfix postfix/main_mailer_type select Local only\n' +
        'postfix postfix/mailname string localhost\n' +
        // phpMyAdmin and Roundcube: no database of their own on this host, no web server set-up
        // (an empty choice: `none` is no choice of the list; see features/releases/agentDebian).
        'phpmyadmin phpmyadmin/dbconfig-install boolean false\n' +
        'phpmyadmin phpmyadmin/reconfigure-webserver multiselect\n' +
        'roundcube-core roundcube/dbconfig-install boolean false\n' +
        'roundcube-core roundcube/reconfigure-webserver multiselect\n' +
        'roundcube-core roundcube/restart-webserver boolean false\n',
      env: APT_ENV,
    });
    await runOk('apt-get', ['update', '-qq'], { env: APT_ENV });
    await runOk(
      'apt-get',
      [
        'install',
        '-y',
        '-qq',
        '--no-install-recommends',
        '-o',
        'Dpkg::Options::=--force-confdef',
        '-o',
        'Dpkg::Options::=--force-confold',
        ...missing,
      ],
      { env: APT_ENV },
    );
  } finally {
    if (ownPolicy) await unlink(POLICY).catch(() => undefined);
  }
  const still = await missingPackages();
  if (still.length > 0) throw new Error(`still missing after apt-get install: ${still.join(' ')}`);
}

/**
 * The packages the agent installs itself for the Debian source (features/releases/agentDebian)
 * when a server lacks them. A sandbox has no network: its apt takes them from the apt cache it
 * shares with this host (checked against the signed package lists, as from a mirror), so their
 * .deb files are kept there. Only what is not cached yet is downloaded.
 */
export const DEBIAN_SOURCE_PACKAGES = ['phpmyadmin', 'roundcube-core', 'roundcube-mysql'] as const;

async function cacheDebianSourceDebs(log: (line: string) => void): Promise<void> {
  const args = ['install', '--reinstall', '--download-only', '-y', '-qq'];
  const wanted = await runOk('apt-get', [...args, '--print-uris', ...DEBIAN_SOURCE_PACKAGES], {
    env: APT_ENV,
  });
  if (!wanted.stdout.trim()) return;
  log(`keeping ${DEBIAN_SOURCE_PACKAGES.join(' ')} in the apt cache`);
  await runOk('apt-get', [...args, ...DEBIAN_SOURCE_PACKAGES], { env: APT_ENV });
}

/**
 * phpMyAdmin's and Roundcube's packages enable Apache aliases (/phpmyadmin, /roundcube) on
 * every Apache site; the hybrid apps of a sandbox must not get them: the installers serve
 * these apps as apps of their own. The preseed above keeps them off; a host that installed
 * them before it did has them enabled.
 */
async function disableAppAliases(log: (line: string) => void): Promise<void> {
  for (const conf of ['phpmyadmin', 'roundcube']) {
    const link = `/etc/apache2/conf-enabled/${conf}.conf`;
    if (!(await exists(link))) continue;
    await unlink(link);
    log(`disabled Apache's global alias ${conf}.conf`);
  }
}

/**
 * Services a sandbox must not start at boot: fail2ban runs only while an attempt limit is on
 * (the agent starts it), so every other sandbox boots without a daemon it never uses.
 * The S links of runlevel 2 become K links; a sandbox boots the S links only.
 */
async function keepOffAtBoot(log: (line: string) => void): Promise<void> {
  for (const service of ['fail2ban', 'opendkim']) {
    const links = await readdir('/etc/rc2.d').catch(() => [] as string[]);
    if (!links.some((name) => new RegExp(`^S\\d\\d${service}$`).test(name))) continue;
    await runOk('update-rc.d', [service, 'disable']);
    log(`${service} no longer starts at boot`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
