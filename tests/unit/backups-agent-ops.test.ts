import { describe, expect, it } from 'vitest';
import { databaseProgress, filesProgress, outcomeOf } from '../../features/backups/agentOpBackup';
import { stampNow } from '../../features/backups/agentOpCommon';
import { includePattern, relativePath } from '../../features/backups/agentOpRestore';
import { backupOutcome } from '../../features/backups/resource';

const progress = {
  percent: 46,
  files_done: 1234,
  total_files: 5000,
  bytes_done: 56_000_000,
  total_bytes: 120_400_000,
};

describe('the backups ops, pure parts', () => {
  it('says progress in words', () => {
    expect(filesProgress(progress)).toBe('Backing up: 1,234 files, 56 MB of 120 MB');
    expect(filesProgress({ ...progress, total_bytes: 0 })).toBe('Backing up: 1,234 files, 56 MB');
    expect(filesProgress({ ...progress, bytes_done: 250_000, total_bytes: 2_100_000 })).toBe(
      'Backing up: 1,234 files, 0.3 MB of 2.1 MB',
    );
    expect(databaseProgress(progress)).toBe('Backing up the database: 56 MB dumped');
  });

  it('maps the runner results to the outcome the panel records', () => {
    const started = Date.now() - 1500;
    const ok = outcomeOf(
      {
        status: 'partial',
        summary: {
          snapshot_id: 'abcdef01',
          files_new: 1,
          files_changed: 0,
          files_unmodified: 2,
          data_added: 10,
          total_files_processed: 3,
          total_bytes_processed: 300,
          total_duration: 1.4,
        },
        warning: { kind: 'partial', message: 'One file could not be read', detail: '' },
        unreadable: [],
      },
      started,
    );
    expect(backupOutcome.parse(ok)).toMatchObject({
      status: 'partial',
      snapshot_id: 'abcdef01',
      files: 3,
      size_bytes: 300,
      added_bytes: 10,
      error: { kind: 'partial', message: 'One file could not be read' },
      forgotten: [],
    });
    expect(ok.duration_ms).toBeGreaterThanOrEqual(1500);
    const bad = outcomeOf(
      { status: 'failed', error: { kind: 'locked', message: 'Locked.', detail: 'x' } },
      started,
    );
    expect(backupOutcome.parse(bad)).toMatchObject({
      status: 'failed',
      snapshot_id: null,
      files: null,
      error: { kind: 'locked', message: 'Locked.' },
    });
  });

  it('takes a restore path only inside the app, and matches it literally', () => {
    expect(relativePath('wp-content/uploads/')).toBe('wp-content/uploads');
    for (const bad of [null, '', '/etc', '../x', 'a/../../x', 'a//b', './a', 'a\nb'])
      expect(() => relativePath(bad), String(bad)).toThrow(/without \.\./);
    expect(includePattern('a[1]*?.txt')).toBe('/a\\[1\\]\\*\\?.txt');
    expect(includePattern('dir\\x')).toBe('/dir\\\\x');
  });

  it('stamps kept names to the second', () => {
    expect(stampNow(new Date('2026-11-28T06:15:02.345Z'))).toBe('20261128061502');
  });
});
