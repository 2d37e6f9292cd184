/**
 * Web-server log pages (issue "Sites"): the newest page and the page 50 back, on a 1 MB and a
 * 1 GB access log of realistic lines, through the agent's own reader; the ratio 1 GB / 1 MB,
 * and `tail -n 100` of the same files for comparison. Medians of several runs; page cache warm.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readLogPage } from '../features/weblogs/agentPaging';

export interface WeblogsResult {
  rows: { size: string; newestMs: number; page50Ms: number; tailMs: number; estimated: boolean }[];
  /** 1 GB / 1 MB for the page 50 back. */
  ratio: number;
}

const line = (i: number) =>
  `203.0.113.${i % 250} - - [24/Nov/2026:10:${String(i % 60).padStart(2, '0')}:00 +0000] "GET /shop/item/${i} HTTP/1.1" 200 ${1000 + (i % 9000)} "https://shop.example/" "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"\n`;

function makeLog(file: string, bytes: number) {
  let block = '';
  for (let i = 0; block.length < 1024 * 1024; i++) block += line(i);
  const buffer = Buffer.from(block);
  const fd = fs.openSync(file, 'w');
  try {
    for (let written = 0; written < bytes; written += buffer.length) fs.writeSync(fd, buffer);
  } finally {
    fs.closeSync(fd);
  }
}

async function median(fn: () => Promise<unknown> | unknown, runs = 7): Promise<number> {
  const times: number[] = [];
  await fn(); // warm: JIT, page cache
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export async function weblogs(): Promise<WeblogsResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-weblogs-'));
  try {
    const rows = [];
    for (const [size, bytes] of [
      ['1 MB', 1024 * 1024],
      ['1 GB', 1024 * 1024 * 1024],
    ] as const) {
      const file = path.join(dir, `${size.replace(' ', '')}.log`);
      makeLog(file, bytes);
      let estimated = false;
      const newestMs = await median(async () => {
        estimated = (await readLogPage(file, 1)).estimated;
      });
      const page50Ms = await median(() => readLogPage(file, 50));
      const tailMs = await median(() => execFileSync('tail', ['-n', '100', file]));
      rows.push({ size, newestMs, page50Ms, tailMs, estimated });
      fs.rmSync(file);
    }
    return { rows, ratio: rows[1]!.page50Ms / rows[0]!.page50Ms };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
