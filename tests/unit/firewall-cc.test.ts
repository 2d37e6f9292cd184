import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { haveList, keepOnly, stagePart, stagedRanges } from '../../features/firewall/agentCc';

/** The agent's staging of country range lists sent in parts, on a real directory. */
let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fw-cc-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const keyOf = (ranges: string[]) => createHash('sha256').update(ranges.join('\n')).digest('hex');
const list = ['192.0.2.0-192.0.2.9', '198.51.100.7', '2001:db8::-2001:db8::ff'];

describe('staged country ranges', () => {
  it('joins the parts in order, checks them, and keeps the joined list under its key', async () => {
    const key = keyOf(list);
    await stagePart(dir, { key, part: 1, ranges: list.slice(2) });
    await stagePart(dir, { key, part: 0, ranges: list.slice(0, 2) });
    expect(await haveList(dir, key)).toBe(false);
    expect(await stagedRanges(dir, { key, parts: 2, count: 3 })).toEqual(list);
    expect(await haveList(dir, key)).toBe(true);
    expect((await fs.readdir(dir)).sort()).toEqual([key]);
    // Named again later, the joined list serves without any part.
    expect(await stagedRanges(dir, { key, parts: 2, count: 3 })).toEqual(list);
    await keepOnly(dir, null);
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('refuses a missing part, another list, a wrong count and a range that is not one', async () => {
    const key = keyOf(list);
    await stagePart(dir, { key, part: 0, ranges: list.slice(0, 2) });
    await expect(stagedRanges(dir, { key, parts: 2, count: 3 })).rejects.toThrow(/Part 2 of 2/);
    await stagePart(dir, { key, part: 1, ranges: ['203.0.113.1'] });
    await expect(stagedRanges(dir, { key, parts: 2, count: 3 })).rejects.toThrow(/do not match/);
    await stagePart(dir, { key, part: 1, ranges: list.slice(2) });
    await expect(stagedRanges(dir, { key, parts: 2, count: 4 })).rejects.toThrow(/do not match/);
    // A file changed on disk behind the agent's back, even with a matching hash, is refused.
    const bad = ['192.0.2.9-192.0.2.0'];
    await fs.writeFile(path.join(dir, keyOf(bad)), bad.join('\n'));
    await expect(stagedRanges(dir, { key: keyOf(bad), parts: 1, count: 1 })).rejects.toThrow(
      /do not match/,
    );
    // Lists other than the one in use are taken away after an apply.
    expect(await stagedRanges(dir, { key, parts: 2, count: 3 })).toEqual(list);
    await keepOnly(dir, key);
    expect(await fs.readdir(dir)).toEqual([key]);
  });
});
