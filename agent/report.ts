import fs from 'node:fs/promises';
import os from 'node:os';
import type { Report } from '../resources/agent/protocol';
import { supervisorStates } from '../features/supervisor/agentStates';
import { AGENT_VERSION } from './version';

interface Counters {
  cpuBusy: number;
  cpuTotal: number;
  rx: number;
  tx: number;
  at: number;
}

async function cpuTimes(): Promise<{ busy: number; total: number }> {
  const first = (await fs.readFile('/proc/stat', 'utf8')).split('\n')[0]!;
  const fields = first.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

async function memory() {
  const info = Object.fromEntries(
    (await fs.readFile('/proc/meminfo', 'utf8'))
      .split('\n')
      .map((line) => /^(\w+):\s+(\d+)/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, Number(m[2]) * 1024]),
  ) as Record<string, number>;
  const total = info.MemTotal ?? 0;
  return {
    total,
    used: total - (info.MemAvailable ?? info.MemFree ?? 0),
    swap_total: info.SwapTotal ?? 0,
    swap_used: (info.SwapTotal ?? 0) - (info.SwapFree ?? 0),
  };
}

async function network(): Promise<{ rx: number; tx: number }> {
  let rx = 0;
  let tx = 0;
  for (const line of (await fs.readFile('/proc/net/dev', 'utf8')).split('\n').slice(2)) {
    const [name, rest] = line.split(':');
    if (!rest || name?.trim() === 'lo') continue;
    const fields = rest.trim().split(/\s+/).map(Number);
    rx += fields[0] ?? 0;
    tx += fields[8] ?? 0;
  }
  return { rx, tx };
}

async function osName(): Promise<string> {
  const text = await fs.readFile('/etc/os-release', 'utf8').catch(() => '');
  return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1] ?? `${os.type()} ${os.release()}`;
}

async function timezone(): Promise<string> {
  const link = await fs.readlink('/etc/localtime').catch(() => null);
  const fromLink = link ? /zoneinfo\/(.+)$/.exec(link)?.[1] : undefined;
  const fromFile = (await fs.readFile('/etc/timezone', 'utf8').catch(() => '')).trim();
  return fromLink ?? (fromFile || 'UTC');
}

/** Takes the machine's figures; rates are measured since the previous call. */
export class Reporter {
  private previous: Counters | null = null;

  async take(): Promise<Report> {
    const at = Date.now();
    const [cpu, mem, net, disk, osPretty, tz, uptimeText, supervisor] = await Promise.all([
      cpuTimes(),
      memory(),
      network(),
      fs.statfs('/'),
      osName(),
      timezone(),
      fs.readFile('/proc/uptime', 'utf8'),
      supervisorStates(),
    ]);
    const prev = this.previous;
    const seconds = prev ? Math.max((at - prev.at) / 1000, 0.001) : 1;
    const busyShare =
      prev && cpu.total > prev.cpuTotal
        ? (cpu.busy - prev.cpuBusy) / (cpu.total - prev.cpuTotal)
        : 0;
    this.previous = { cpuBusy: cpu.busy, cpuTotal: cpu.total, rx: net.rx, tx: net.tx, at };
    const [l1 = 0, l5 = 0, l15 = 0] = os.loadavg();
    return {
      agent_version: AGENT_VERSION,
      kernel_version: os.release(),
      os: osPretty,
      hostname: os.hostname(),
      timezone: tz,
      uptime: Number(uptimeText.split(' ')[0]),
      load: [l1, l5, l15],
      cpu: { cores: os.cpus().length || 1, usage: Math.min(100, Math.max(0, busyShare * 100)) },
      memory: mem,
      disk: { total: disk.blocks * disk.bsize, used: (disk.blocks - disk.bfree) * disk.bsize },
      network: {
        rx_bytes: net.rx,
        tx_bytes: net.tx,
        rx_rate: prev ? Math.max(0, (net.rx - prev.rx) / seconds) : 0,
        tx_rate: prev ? Math.max(0, (net.tx - prev.tx) / seconds) : 0,
      },
      at,
      ...(supervisor ? { supervisor } : {}),
    };
  }
}
