/**
 * Creating a PHP app (issue "Sites"): from the API call to the app answering 200 through nginx
 * in a sandbox server with the real agent, nginx and PHP-FPM. The clock runs from the POST to
 * the first 200 of `curl` inside the sandbox (its `exec` adds a few ms to every figure), for
 * apps created one after another; the first two warm up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile, startBenchServer } from './benchServer';

export interface WebappCreateResult {
  apps: number;
  p50Ms: number;
  p90Ms: number;
  /** Of the p50: how long the POST itself took (the answer comes once the app is active). */
  apiP50Ms: number;
}

export async function webappCreate(apps = 10): Promise<WebappCreateResult> {
  const bench = await startBenchServer(['ssh', 'nginx', 'php8.2-fpm']);
  const { api, sandbox } = bench;
  try {
    await api('POST', bench.path('sysusers'), {
      user_name: 'bench',
      password: 'a long bench password 1',
    });
    const answers = async (domain: string) =>
      (
        await sandbox.exec([
          'curl',
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          '-H',
          `Host: ${domain}`,
          'http://127.0.0.1/',
        ])
      ).stdout === '200';
    const total: number[] = [];
    const posts: number[] = [];
    for (let i = 0; i < apps + 2; i++) {
      const domain = `app${i}.bench.example`;
      const started = performance.now();
      const app = await api('POST', bench.path('webstacks'), {
        name: `app${i}`,
        domains: [domain],
        sys_user: 'bench',
      });
      const posted = performance.now();
      if (app.status !== 'active') throw new Error(`app ${i} is ${String(app.status)}`);
      while (!(await answers(domain))) {
        if (performance.now() - started > 60_000) throw new Error(`app ${i} never answered`);
        await sleep(5);
      }
      if (i >= 2) {
        total.push(performance.now() - started);
        posts.push(posted - started);
      }
    }
    total.sort((a, b) => a - b);
    posts.sort((a, b) => a - b);
    return {
      apps,
      p50Ms: percentile(total, 0.5),
      p90Ms: percentile(total, 0.9),
      apiP50Ms: percentile(posts, 0.5),
    };
  } finally {
    await bench.close();
  }
}
