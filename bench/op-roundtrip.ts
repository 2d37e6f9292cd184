/**
 * Op round trip: `GET ping/servers/{sid}` (API -> agent -> `system.uptime` -> answer) against
 * `ssh root@server cat /proc/uptime`, both on the same sandbox server with the real agent,
 * installed by its real install command. One run, sequential calls, per-call means.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { loadConfig } from '../server/config';
import { startSandbox } from '../scripts/sandbox';

export interface RoundTripResult {
  calls: number;
  opMs: number;
  opP99Ms: number;
  sshMs: number;
  ratio: number;
  /** A managed op: POST of a cron job until it is active (API -> row -> agent -> crontab -> row). */
  cron: { calls: number; p50Ms: number; p99Ms: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const AGENT_BUNDLE = 'dist/agent/stackdeck-agent.mjs';

export async function opRoundTrip(
  calls = 200,
  sshCalls = 20,
  cronCalls = 100,
): Promise<RoundTripResult> {
  if (!existsSync(AGENT_BUNDLE))
    execFileSync('node', ['scripts/build-agent.mjs'], { stdio: 'ignore' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-roundtrip-'));
  const app = await build({
    config: { ...loadConfig({}), dataDir, webDir: null, agentBundle: path.resolve(AGENT_BUNDLE) },
  });
  const cleanups: (() => Promise<unknown>)[] = [
    async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    () => app.close(),
  ];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    app.config.publicUrl = base;

    const user = await app.services.users.create({
      email: 'bench@example.com',
      user_name: 'Bench',
      password_hash: await hashPassword('bench password 1'),
      confirmed: true,
    });
    const token = await app.services.sessions.issue(user.id, {
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}/api/v1/${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const server = await api('POST', `servers/users/${user.id}?action=create`, { name: 'bench' });
    const { command } = (await api(
      'POST',
      `servers/users/${user.id}?action=script&sid=${server.id}`,
    )) as { command: string };

    const sandbox = await startSandbox({ panel: base, services: ['ssh'] });
    cleanups.unshift(() => sandbox.stop());
    await sandbox.execOk(['bash', '-c', command], { timeoutMs: 300_000 });
    await sandbox.waitFor(async () => {
      const row = (await api('GET', `servers/${server.id}/users/${user.id}`)) as {
        connected?: boolean;
      };
      return row.connected ? true : undefined;
    }, 60_000);

    const ping = `ping/servers/${server.id}/users/${user.id}`;
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
    const cronUrl = `cronjobs/servers/${server.id}/users/${user.id}`;
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
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}
