/**
 * File manager (issue 12): the first page (100 entries) of a folder of 100,000 files, through
 * the API to the agent of a sandbox server and back: the agent's worker, as the app's user,
 * streams the folder's names, sorts them and stats only the page. Median of several calls (the
 * first warms the page cache), and the 10th page for comparison.
 */
import { startBenchServer } from './benchServer';

export interface FilesResult {
  entries: number;
  firstPageMs: number;
  page10Ms: number;
}

async function median(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  const times: number[] = [];
  await fn();
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export async function filesBench(entries = 100_000): Promise<FilesResult> {
  const bench = await startBenchServer(['ssh', 'nginx', 'php8.2-fpm']);
  const { api, sandbox } = bench;
  try {
    await api('POST', bench.path('sysusers'), {
      user_name: 'bench',
      password: 'a long bench password 1',
    });
    const app = await api('POST', bench.path('webstacks'), {
      name: 'files',
      domains: ['files.bench.example'],
      sys_user: 'bench',
    });
    const dir = '/home/bench/apps/files/big';
    await sandbox.execOk(
      [
        'runuser',
        '-u',
        'bench',
        '--',
        'sh',
        '-c',
        `mkdir ${dir} && cd ${dir} && seq -w 1 ${entries} | xargs touch`,
      ],
      { timeoutMs: 600_000 },
    );
    const page = async (n: number) => {
      const res = await api(
        'GET',
        `${bench.path('fs')}?wsid=${String(app.id)}&path=/big&page=${n}&per_page=100`,
      );
      if (res.total !== entries) throw new Error(`listed ${String(res.total)} entries`);
    };
    return {
      entries,
      firstPageMs: await median(() => page(1)),
      page10Ms: await median(() => page(10)),
    };
  } finally {
    await bench.close();
  }
}
