/**
 * The PHP runtimes of a server: which versions are installed and run, which its package
 * sources offer, and installing one (its FPM started).
 */
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitRunning } from '../../agent/lib/init';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { AgentFeature } from '../../agent/ops/types';
import { KNOWN_PHP_VERSIONS, fpmPackage, installArgv, parsePolicy } from './phpPackages';
import type { ops } from './resource';
import { phpVersions, reload } from './agentWebServer';

type PhpOps = Pick<
  AgentFeature<typeof ops>['ops'],
  'php.available' | 'php.install' | 'php.runtimes'
>;

export const phpOps: PhpOps = {
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
      throw opFieldError('version', `PHP ${version} is not a version the panel runs (5.6 to 8.4)`);
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
};
