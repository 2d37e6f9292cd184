/**
 * Op round trip: `GET ping/servers/{sid}` (API -> agent -> `system.uptime` -> answer) against
 * `ssh root@server cat /proc/uptime`, both on the same sandbox server with the real agent,
 * installed by its real install command. One run, sequential calls, per-call means.
 */
import { percentile, startBenchServer } from './benchServer';

export interface RoundTripResult {
  calls: number;
  opMs: number;
  opP99Ms: number;
  sshMs: number;
  ratio: number;
  /** A managed op: POST of a cron job until it is active (API -> row -> agent -> crontab -> row). */
  cron: { calls: number; p50Ms: number; p99Ms: number };
}

export async function opRoundTrip(
  calls = 200,
  sshCalls = 20,
  cronCalls = 100,
): Promise<RoundTripResult> {
  const bench = await startBenchServer(['ssh']);
  const { api, sandbox } = bench;
  try {
    const ping = bench.path('ping');
    for (let i = 0; i < 20; i++) await api('GET', ping); // warm up: JIT, keep-alive
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      await api('GET', ping);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const opMs = times.reduce((sum, t) => sum + t, 0) / times.length;

    // ssh inside the sandbox's own network, timed inside too: no namespace entry in the figure.
    await sandbox.execOk([
      'bash',
      '-c',
      'ssh-keygen -q -t ed25519 -N "" -f /root/.ssh/bench && cat /root/.ssh/bench.pub >> /root/.ssh/authorized_keys',
    ]);
    const loop = `start=$(date +%s%N); for i in $(seq ${sshCalls}); do ssh -q -i /root/.ssh/bench -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null root@127.0.0.1 cat /proc/uptime >/dev/null || exit 1; done; echo $(( ($(date +%s%N) - start) / ${sshCalls} ))`;
    const { stdout } = await sandbox.execOk(['bash', '-c', loop], { timeoutMs: 300_000 });
    const sshMs = Number(stdout.trim()) / 1e6;

    // Managed op latency: each create answers once the crontab holds the job and the row is
    // active (the call returns the settled row); checked, so a pending answer cannot pass.
    const cronUrl = bench.path('cronjobs');
    const cronTimes: number[] = [];
    for (let i = 0; i < cronCalls + 5; i++) {
      const started = performance.now();
      const job = await api('POST', cronUrl, {
        label: `bench-${i}`,
        sys_user: 'root',
        schedule: '@daily',
        command: `echo ${i}`,
      });
      if (job.status !== 'active') throw new Error(`cron job ${i} is ${String(job.status)}`);
      if (i >= 5) cronTimes.push(performance.now() - started); // the first five warm up
    }
    cronTimes.sort((a, b) => a - b);
    return {
      calls,
      opMs,
      opP99Ms: times[Math.floor(times.length * 0.99)]!,
      sshMs,
      ratio: sshMs / opMs,
      cron: {
        calls: cronCalls,
        p50Ms: percentile(cronTimes, 0.5),
        p99Ms: percentile(cronTimes, 0.99),
      },
    };
  } finally {
    await bench.close();
  }
}
