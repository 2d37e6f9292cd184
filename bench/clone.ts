/**
 * Cloning an app (issue 11): an app with `CLONE_FILES_MB` (1024) of files and a database of
 * `CLONE_DB_MB` (200) cloned through the API until the task completes, against `cp -a` of the
 * same folder plus `mariadb-dump | mariadb` of the same database on the same sandbox server, as
 * a ratio. The clone also rewrites addresses (10 % of the rows hold the source's domain) and
 * copies as two users (tar to tar); the baseline does neither. The files are read once before
 * both, so neither starts from a cold cache.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchServer } from './benchServer';

export interface CloneResult {
  filesMb: number;
  dbMb: number;
  cloneMs: number;
  baselineMs: number;
  ratio: number;
  /** Seconds from the call to each step's first event. */
  steps: { event: string; at: number }[];
}

export async function cloneBench(
  filesMb = Number(process.env.CLONE_FILES_MB ?? 1024),
  dbMb = Number(process.env.CLONE_DB_MB ?? 200),
): Promise<CloneResult> {
  const bench = await startBenchServer(['ssh', 'nginx', 'php8.2-fpm', 'mariadb']);
  const { api, sandbox } = bench;
  const sh = (script: string) => sandbox.execOk(['bash', '-c', script], { timeoutMs: 3_600_000 });
  const timed = async (script: string) => {
    const started = performance.now();
    await sh(script);
    return performance.now() - started;
  };
  try {
    await api('POST', bench.path('sysusers'), {
      user_name: 'bench',
      password: 'a long bench password 1',
    });
    const app = await api('POST', bench.path('webstacks'), {
      name: 'src',
      domains: ['src.bench.example'],
      sys_user: 'bench',
    });
    await api('POST', bench.path(`webstackdb/${String(app.id)}`), { name: 'src_db' });
    // Files: 1 MB files of random bytes, and a thousand small ones, as the app's user.
    const dir = '/home/bench/apps/src/public';
    await sh(
      `cd ${dir} && runuser -u bench -- bash -c 'mkdir -p big small && for i in $(seq 1 ${filesMb}); do head -c 1048576 /dev/urandom > big/f$i; done && for i in $(seq 1 1000); do echo "<?php // http://src.bench.example/$i" > small/f$i.php; done'`,
    );
    // The database: rows of 1 KB, one in ten with the source's address (MariaDB's sequence engine).
    const rows = Math.ceil((dbMb * 1024 * 1024) / 1024);
    await sh(`mariadb src_db -e "CREATE TABLE posts (id INT AUTO_INCREMENT PRIMARY KEY, body MEDIUMTEXT) ENGINE=InnoDB;
      INSERT INTO posts (body) SELECT IF(seq % 10 = 0, CONCAT('see http://src.bench.example/page ', REPEAT('y', 960)), REPEAT('x', 1000)) FROM seq_1_to_${rows};"`);
    await sh(`tar -cf /dev/null -C /home/bench/apps src && mariadb-dump src_db > /dev/null`);

    const baselineMs = await timed(
      `cp -a /home/bench/apps/src /tmp/baseline-copy && mariadb -e 'CREATE DATABASE baseline_copy' && mariadb-dump --single-transaction --quick src_db | mariadb baseline_copy`,
    );
    await sh(`rm -rf /tmp/baseline-copy && mariadb -e 'DROP DATABASE baseline_copy'`);

    const started = performance.now();
    const answer = await api('POST', bench.path(`clone-webapp/webstacks/${String(app.id)}`), {
      name: 'copy',
      domains: ['copy.bench.example'],
      sys_user: 'bench',
    });
    for (;;) {
      const list = (await api(
        'GET',
        `clone-events/users/${bench.userId}?id=${String(answer.task_id)}`,
      )) as { data: { status: string; events: { event: string }[] }[] };
      const task = list.data[0]!;
      if (task.status === 'failed')
        throw new Error(`the clone failed: ${JSON.stringify(task.events)}`);
      if (task.status === 'completed') break;
      await sleep(100);
    }
    const cloneMs = performance.now() - started;
    const events = await bench.app.db
      .selectFrom('task_events')
      .select(['event', 'created_at'])
      .where('task_id', '=', Number(answer.task_id))
      .orderBy('id')
      .execute();
    const t0 = Date.parse(events[0]?.created_at ?? new Date().toISOString());
    const steps = events
      .filter((e) => !/^Copied|\d+ of \d+|%/.test(e.event))
      .map((e) => ({ event: e.event, at: (Date.parse(e.created_at) - t0) / 1000 }));
    return { filesMb, dbMb, cloneMs, baselineMs, ratio: cloneMs / baselineMs, steps };
  } finally {
    await bench.close();
  }
}
