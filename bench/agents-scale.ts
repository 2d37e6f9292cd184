import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  BROWSER_NAMESPACE,
  EVENTS,
  REPORT_INTERVAL_MS,
  type Report,
} from '../resources/agent/protocol';

export interface ScaleResult {
  agents: number;
  browsers: number;
  reports: number;
  deliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxRssMb: number;
  connectSeconds: number;
}

const report = (i: number): Report => ({
  agent_version: 'bench',
  kernel_version: '6.1.0',
  os: 'Debian GNU/Linux 12 (bookworm)',
  hostname: `scale-${i}`,
  timezone: 'UTC',
  uptime: 1000 + i,
  load: [0.1, 0.1, 0.1],
  cpu: { cores: 2, usage: 5 },
  memory: { total: 4e9, used: 1e9, swap_total: 0, swap_used: 0 },
  disk: { total: 5e10, used: 1e10 },
  network: { rx_bytes: 1, tx_bytes: 1, rx_rate: 0, tx_rate: 0 },
  at: Date.now(),
});

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/**
 * One panel process holding `agents` simulated agents (plain socket.io clients speaking the
 * agent protocol) that report every 5 s, with browsers subscribed to a tenth of the servers.
 * Measures report-to-browser latency and the panel's resident memory.
 */
export async function agentsScale(agents = 5000, measureSeconds = 60): Promise<ScaleResult> {
  const panel = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/panel-process.ts', String(agents)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: panel.stdout! });
    lines.once('line', resolve);
    panel.once('exit', (code) => reject(new Error(`panel exited ${code}`)));
  });
  const { port, token, servers } = JSON.parse(firstLine) as {
    port: number;
    token: string;
    servers: { uuid: string; key: string }[];
  };
  const base = `http://127.0.0.1:${port}`;
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  let maxRss = 0;
  const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, rssMb(panel.pid!))), 1000);
  try {
    const started = Date.now();
    for (let i = 0; i < servers.length; i += 250) {
      await Promise.all(
        servers.slice(i, i + 250).map(
          ({ key }, j) =>
            new Promise<void>((resolve, reject) => {
              const socket = io(`${base}${AGENT_NAMESPACE}`, {
                auth: { key, agent_version: 'bench' },
                transports: ['websocket'],
                forceNew: true,
                reconnection: false,
              });
              sockets.push(socket);
              socket.once('connect', () => {
                const n = i + j;
                // Spread the reports over the interval, as real agents started at different times.
                const start = setTimeout(() => {
                  socket.emit(EVENTS.report, report(n));
                  timers.push(
                    setInterval(() => socket.emit(EVENTS.report, report(n)), REPORT_INTERVAL_MS),
                  );
                }, Math.random() * REPORT_INTERVAL_MS);
                timers.push(start);
                resolve();
              });
              socket.once('connect_error', reject);
            }),
        ),
      );
    }
    const connectSeconds = (Date.now() - started) / 1000;

    const latencies: number[] = [];
    let measuring = false;
    const watched = servers.filter((_, i) => i % 10 === 0);
    for (const { uuid } of watched) {
      const browser = io(`${base}${BROWSER_NAMESPACE}`, {
        auth: { token },
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
      });
      sockets.push(browser);
      await new Promise<void>((resolve, reject) => {
        browser.once('connect', () => resolve());
        browser.once('connect_error', reject);
      });
      const answer = (await browser.emitWithAck(EVENTS.subscribe, { uuid })) as { ok: boolean };
      if (!answer.ok) throw new Error('subscription refused');
      browser.on(EVENTS.live, (message: Report) => {
        if (measuring) latencies.push(Date.now() - message.at);
      });
    }
    // Warm up one full report round, then measure.
    await new Promise((r) => setTimeout(r, REPORT_INTERVAL_MS + 1000));
    measuring = true;
    await new Promise((r) => setTimeout(r, measureSeconds * 1000));
    measuring = false;
    latencies.sort((a, b) => a - b);
    return {
      agents: servers.length,
      browsers: watched.length,
      reports: Math.round((servers.length * measureSeconds * 1000) / REPORT_INTERVAL_MS),
      deliveries: latencies.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxRssMb: maxRss,
      connectSeconds,
    };
  } finally {
    clearInterval(rssTimer);
    for (const timer of timers) clearTimeout(timer);
    for (const socket of sockets) socket.disconnect();
    panel.kill('SIGTERM');
    await new Promise((r) => panel.once('exit', r));
  }
}
