/**
 * Git deploys (issue 12): failed requests during a deploy under a steady `curl` load, and the
 * deploy's time. A sandbox server with the real agent, nginx and PHP-FPM, and a git server in
 * it (git-shell, the app user's deployment key, over SSH on 127.0.0.1); the load is a curl loop
 * inside the sandbox that counts every answer other than one of the two releases' pages.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startGitServer } from '../tests/system/harness/gitServer';
import { percentile, startBenchServer } from './benchServer';

export interface GitDeployResult {
  deploys: number;
  /** Requests answered during all the deploys, and those that failed or served neither page. */
  requests: number;
  failed: number;
  /** From "Deploy now" to the deploy's recorded end. */
  p50Ms: number;
  maxMs: number;
}

export async function gitDeploy(deploys = 5): Promise<GitDeployResult> {
  const bench = await startBenchServer(['ssh', 'nginx', 'php8.2-fpm']);
  const { api, sandbox } = bench;
  try {
    const user = await api('POST', bench.path('sysusers'), {
      user_name: 'alice',
      password: 'a long bench password 1',
    });
    const app = await api('POST', bench.path('webstacks'), {
      name: 'site',
      domains: ['site.test'],
      sys_user: 'alice',
    });
    const ofApp = (p: string) => bench.path(`${p}/webstacks/${app.id}`);
    const key = await api('GET', `${bench.path(`sysusers/${user.id}`)}?rsa=create`);
    const repo = await startGitServer(sandbox, String(key.public_key), {
      'public/index.html': 'release 0\n',
    });
    const commit = (text: string) => repo.push('main', { 'public/index.html': text }, text);
    await api('POST', `${bench.path('gitdeploy')}?wsid=${app.id}`, {
      repository: repo.url,
      branch: 'main',
    });
    const deployOnce = async () => {
      const started = performance.now();
      const { id } = await api('POST', ofApp('gitdeploy/deploys'));
      for (;;) {
        const list = (await api('GET', ofApp('gitdeploy/deploys'))) as {
          data: { id: number; status: string; message: string | null }[];
        };
        const row = list.data.find((d) => d.id === id)!;
        if (row.status === 'failed') throw new Error(`deploy failed: ${row.message}`);
        if (row.status === 'completed') return performance.now() - started;
        await sleep(100);
      }
    };
    await deployOnce(); // the first deploy converts the folder; not counted

    let requests = 0;
    let failed = 0;
    const times: number[] = [];
    for (let i = 1; i <= deploys; i++) {
      await commit(`release ${i}\n`);
      await sandbox.execOk(['rm', '-f', '/tmp/stop-load']);
      const accept = `"release ${i - 1}"|"release ${i}"`;
      const load = sandbox.exec(
        [
          'bash',
          '-c',
          `ok=0; bad=0; while [ ! -e /tmp/stop-load ]; do b=$(curl -s -m 5 -H "Host: site.test" http://127.0.0.1/); case "$b" in ${accept}) ok=$((ok+1));; *) bad=$((bad+1));; esac; done; echo "$ok $bad"`,
        ],
        { timeoutMs: 600_000 },
      );
      await sleep(300);
      times.push(await deployOnce());
      await sleep(300);
      await sandbox.execOk(['touch', '/tmp/stop-load']);
      const [ok, bad] = (await load).stdout.trim().split(' ').map(Number);
      requests += ok! + bad!;
      failed += bad!;
    }
    times.sort((a, b) => a - b);
    return { deploys, requests, failed, p50Ms: percentile(times, 0.5), maxMs: times.at(-1)! };
  } finally {
    await bench.close();
  }
}
