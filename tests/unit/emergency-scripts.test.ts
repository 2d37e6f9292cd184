import { describe, expect, it } from 'vitest';
import { runBody } from '../../features/emergency-scripts/resource';
import {
  SCRIPTS,
  SCRIPT_IDS,
  foreignParam,
  paramsFor,
} from '../../features/emergency-scripts/scripts';

/** The 911 library's rules the declaration, the panel and the page share. */
describe('911 scripts', () => {
  it('describes every script once, in the order of the ids', () => {
    expect(SCRIPTS.map((s) => s.id)).toEqual([...SCRIPT_IDS]);
  });

  it('fills the defaults of the parameters a script takes, and only those', () => {
    expect(paramsFor('free-disk', {})).toEqual({ keep_days: 7 });
    expect(paramsFor('free-disk', { keep_days: 30 })).toEqual({ keep_days: 30 });
    expect(paramsFor('unlock-package-manager', { kill_stale: true })).toEqual({
      wait_seconds: 60,
      kill_stale: true,
    });
    expect(paramsFor('restart-web-stack', {})).toEqual({});
  });

  it('names a parameter given to a script that does not take it', () => {
    expect(foreignParam('restart-web-stack', { keep_days: 7 })).toBe('keep_days');
    expect(foreignParam('free-disk', { keep_days: 7 })).toBeNull();
    expect(foreignParam('free-disk', { kill_stale: false })).toBe('kill_stale');
  });

  it('takes values from fixed choices only, and no other parameter', () => {
    const parse = (params: unknown) =>
      runBody.safeParse({ script: 'free-disk', servers: [1], params }).success;
    expect(parse({ keep_days: 14 })).toBe(true);
    expect(parse({ keep_days: 2 })).toBe(false);
    expect(parse({ wait_seconds: 45 })).toBe(false);
    expect(parse({ command: 'id' })).toBe(false);
    expect(parse({ kill_stale: 'true' })).toBe(false);
  });
});
