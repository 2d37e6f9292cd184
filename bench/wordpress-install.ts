/**
 * The WordPress one-click install (issue 11): from the API call to the site answering 200 with
 * its title through nginx, in a sandbox server with the real agent, nginx, PHP-FPM and
 * MariaDB. The release is Debian's WordPress 6.1.9 served inside the sandbox (no internet
 * here), so the download is a loopback one; a real server adds its download time (about 25 MB).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { serveWordpress } from '../tests/system/harness/releaseArchives';
import { percentile, startBenchServer } from './benchServer';

export interface WordpressInstallResult {
  installs: number;
  p50Ms: number;
  maxMs: number;
}

export async function wordpressInstall(installs = 5): Promise<WordpressInstallResult> {
  const bench = await startBenchServer(['ssh', 'nginx', 'php8.2-fpm', 'mariadb']);
  const { api, sandbox } = bench;
  try {
    await api('POST', bench.path('sysusers'), {
      user_name: 'bench',
      password: 'a long bench password 1',
    });
    const release = await serveWordpress(sandbox, 18772);
    const at = new Date().toISOString();
    await bench.app.db
      .insertInto('app_releases')
      .values({
        app: 'wordpress',
        version: '6.1.9',
        url: release.url,
        sha256: release.sha256,
        size: null,
        format: 'tar.gz',
        is_default: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const answers = async (domain: string) =>
      (
        await sandbox.exec([
          'curl',
          '-s',
          '--resolve',
          `${domain}:80:127.0.0.1`,
          `http://${domain}/`,
        ])
      ).stdout.includes('Bench Blog');
    const times: number[] = [];
    for (let i = 0; i < installs; i++) {
      const domain = `wp${i}.bench.example`;
      const started = performance.now();
      await api('POST', bench.path('wordpress'), {
        name: `wp${i}`,
        domains: [domain],
        sys_user: 'bench',
        title: 'Bench Blog',
        admin_user: 'editor1',
        admin_email: 'editor@example.com',
      });
      while (!(await answers(domain))) {
        if (performance.now() - started > 120_000) throw new Error(`install ${i} never answered`);
        await sleep(20);
      }
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { installs, p50Ms: percentile(times, 0.5), maxMs: times.at(-1) ?? 0 };
  } finally {
    await bench.close();
  }
}
