import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_EXACTLY_UP_TO, readLogPage } from '../../features/weblogs/agentPaging';

/** Log pages from real files: numbered lines, so every page can be checked line by line. */
let dir: string;
const numbered = (from: number, to: number, eol = '\n') =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join(eol) + eol;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weblogs-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('log pages from the end', () => {
  it('gives the newest 100 lines first, then the 100 before, exactly', async () => {
    const file = path.join(dir, 'a.log');
    await fs.writeFile(file, numbered(1, 1050));
    const first = await readLogPage(file, 1);
    expect(first.lines).toHaveLength(100);
    expect(first.lines[0]).toBe('line 951');
    expect(first.lines[99]).toBe('line 1050');
    expect(first).toMatchObject({
      total_size: 1050,
      total_pages: 11,
      has_more: true,
      estimated: false,
    });
    const third = await readLogPage(file, 3);
    expect(third.lines[0]).toBe('line 751');
    expect(third.lines[99]).toBe('line 850');
    const last = await readLogPage(file, 11);
    expect(last.lines).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i + 1}`));
    expect(last.has_more).toBe(false);
    expect((await readLogPage(file, 12)).lines).toEqual([]);
  });

  it('reads CRLF lines, a last line without newline, and cuts a huge line', async () => {
    const file = path.join(dir, 'b.log');
    await fs.writeFile(file, `${numbered(1, 3, '\r\n')}${'x'.repeat(100_000)}\nlast`);
    const page = await readLogPage(file, 1);
    expect(page.lines.slice(0, 3)).toEqual(['line 1', 'line 2', 'line 3']);
    expect(page.lines[3]).toMatch(/^x{16384} … \[line cut at 16 KiB\]$/);
    expect(page.lines[4]).toBe('last');
    expect(page.total_size).toBe(5);
  });

  it('shows the start of a line longer than several chunks, in one piece', async () => {
    const file = path.join(dir, 'long.log');
    // Read backwards in 64 KiB chunks from the end: sized so that the line's first chunk
    // boundary falls 100 bytes after its start, where a spliced line would show.
    const digits = Array.from({ length: 60_000 }, (_, i) => i).join(',');
    const long = `START ${digits}`.slice(0, 93 + 65_536 * 5);
    await fs.writeFile(file, `before\n${long}\nafter\n`);
    const page = await readLogPage(file, 1);
    expect(page.lines).toHaveLength(3);
    expect(page.lines[0]).toBe('before');
    expect(page.lines[1]).toBe(`${long.slice(0, 16384)} … [line cut at 16 KiB]`);
    expect(page.lines[2]).toBe('after');
  });

  it('offers no older page when the rotated file is empty', async () => {
    const file = path.join(dir, 'quiet.log');
    await fs.writeFile(`${file}.1`, '');
    await fs.writeFile(file, numbered(1, 100));
    expect(await readLogPage(file, 1)).toMatchObject({ has_more: false, total_pages: 1 });
  });

  it('continues into the rotated file', async () => {
    const file = path.join(dir, 'c.log');
    await fs.writeFile(`${file}.1`, numbered(1, 150));
    await fs.writeFile(file, numbered(151, 180));
    const first = await readLogPage(file, 1);
    expect(first.lines[0]).toBe('line 81');
    expect(first.lines[99]).toBe('line 180');
    expect(first).toMatchObject({ total_size: 180, total_pages: 2, has_more: true });
    const second = await readLogPage(file, 2);
    expect(second.lines).toEqual(Array.from({ length: 80 }, (_, i) => `line ${i + 1}`));
    expect(second.has_more).toBe(false);
  });

  it('continues into the compressed files logrotate keeps, and counts them', async () => {
    const file = path.join(dir, 'z.log');
    await fs.writeFile(`${file}.3.gz`, gzipSync(numbered(1, 120)));
    await fs.writeFile(`${file}.2.gz`, gzipSync(numbered(121, 150)));
    await fs.writeFile(`${file}.1`, numbered(151, 200));
    await fs.writeFile(file, numbered(201, 260));
    const first = await readLogPage(file, 1);
    expect(first.lines[0]).toBe('line 161');
    expect(first.has_more).toBe(true);
    // The archives beyond the page are estimated from the size gzip records.
    expect(first.estimated).toBe(true);
    expect(first.total_pages).toBeGreaterThanOrEqual(2);
    const second = await readLogPage(file, 2);
    expect(second.lines[0]).toBe('line 61');
    expect(second.lines[99]).toBe('line 160');
    expect(second.has_more).toBe(true);
    const third = await readLogPage(file, 3);
    expect(third.lines).toEqual(Array.from({ length: 60 }, (_, i) => `line ${i + 1}`));
    expect(third).toMatchObject({ has_more: false, total_size: 260, total_pages: 3 });
  });

  it('stops at a gap in the rotated files and never reads a linked archive', async () => {
    const file = path.join(dir, 'gap.log');
    await fs.writeFile(file, numbered(1, 10));
    await fs.symlink('/etc/passwd', `${file}.1`);
    await fs.writeFile(`${file}.2.gz`, gzipSync(numbered(1, 10)));
    expect(await readLogPage(file, 1)).toMatchObject({ total_size: 10, has_more: false });
  });

  it('never follows a link, and a missing log is an empty page', async () => {
    const link = path.join(dir, 'link.log');
    await fs.symlink('/etc/passwd', link);
    expect((await readLogPage(link, 1)).lines).toEqual([]);
    expect(await readLogPage(path.join(dir, 'none.log'), 1)).toMatchObject({
      lines: [],
      total_size: 0,
      total_pages: 1,
      has_more: false,
    });
  });

  it('estimates the line count of a big file instead of reading it through', async () => {
    const file = path.join(dir, 'big.log');
    const block = numbered(1, 1000);
    const copies = Math.ceil((COUNT_EXACTLY_UP_TO + 1) / block.length);
    await fs.writeFile(file, block.repeat(copies));
    const page = await readLogPage(file, 1);
    expect(page.estimated).toBe(true);
    expect(page.lines[99]).toBe('line 1000');
    const exact = copies * 1000;
    expect(Math.abs(page.total_size - exact) / exact).toBeLessThan(0.05);
  });
});
