import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testClockFrom } from '../../server/testClock';

describe('the UI tests’ panel clock (STACKDECK_TEST_CLOCK)', () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-clock-'));
    file = path.join(dir, 'clock');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is off unless asked for: the panel keeps the real time', () => {
    expect(testClockFrom({}, '127.0.0.1')).toBeUndefined();
  });

  it('is refused where a real panel could run: another host, or NODE_ENV=production', () => {
    expect(() => testClockFrom({ STACKDECK_TEST_CLOCK: file }, '0.0.0.0')).toThrow(/loopback/);
    expect(() => testClockFrom({ STACKDECK_TEST_CLOCK: file }, '10.0.0.5')).toThrow(/loopback/);
    expect(() =>
      testClockFrom({ STACKDECK_TEST_CLOCK: file, NODE_ENV: 'production' }, '127.0.0.1'),
    ).toThrow(/production/);
  });

  it('is the real time until the test writes an offset, then that far ahead', () => {
    const clock = testClockFrom({ STACKDECK_TEST_CLOCK: file }, '127.0.0.1')!;
    const before = Date.now();
    expect(clock()).toBeGreaterThanOrEqual(before);
    expect(clock()).toBeLessThan(before + 60_000);

    const day = 24 * 3600_000;
    fs.writeFileSync(file, String(day));
    expect(clock()).toBeGreaterThanOrEqual(before + day);
    expect(clock()).toBeLessThan(before + day + 60_000);
  });

  it('says so when the file is not a whole number of milliseconds', () => {
    const clock = testClockFrom({ STACKDECK_TEST_CLOCK: file }, '::1')!;
    fs.writeFileSync(file, 'tomorrow');
    expect(() => clock()).toThrow(/whole number/);
    fs.writeFileSync(file, '-5');
    expect(() => clock()).toThrow(/whole number/);
  });
});
