import { describe, expect, it } from 'vitest';
import {
  backupPaths,
  creditFull,
  durationText,
  excludesToText,
  keptCopyWords,
  keyscanCommand,
  restoreConsequence,
  runActive,
  scheduleFields,
  textToExcludes,
  usedPercent,
} from '../../features/backups/words';

describe('backup pages: words and rules', () => {
  it('links each type to its pages', () => {
    expect(backupPaths.list('webapp')).toBe('/account-backups');
    expect(backupPaths.list('database')).toBe('/database-backups');
    expect(backupPaths.files('webapp', 7)).toBe('/account-backup-files/7');
    expect(backupPaths.files('database', 3)).toBe('/database-backup-files/3');
  });

  it("names the ssh-keyscan command for the storage's host as typed", () => {
    expect(keyscanCommand('')).toBe('ssh-keyscan -p PORT host');
    expect(keyscanCommand('nas.example:2222')).toBe('ssh-keyscan -p 2222 nas.example');
    expect(keyscanCommand('nas.example')).toBe('ssh-keyscan nas.example');
    expect(keyscanCommand('nas.example:22')).toBe('ssh-keyscan nas.example');
    expect(keyscanCommand('-oProxyCommand=x')).toBe('ssh-keyscan -p PORT host');
  });

  it('says durations as people do', () => {
    expect(durationText(null)).toBe('—');
    expect(durationText(850)).toBe('850 ms');
    expect(durationText(12_400)).toBe('12 s');
    expect(durationText(185_000)).toBe('3 min 5 s');
    expect(durationText(120_000)).toBe('2 min');
    expect(durationText(3_720_000)).toBe('1 h 2 min');
  });

  it('measures the credit used, never past full', () => {
    expect(usedPercent(0, 0)).toBe(0);
    expect(usedPercent(5, 0)).toBe(100);
    expect(usedPercent(25, 100)).toBe(25);
    expect(usedPercent(300, 100)).toBe(100);
  });

  it('calls the panel storage full at or over the credit', () => {
    expect(creditFull(9, 10)).toBe(false);
    expect(creditFull(10, 10)).toBe(true);
    expect(creditFull(11, 10)).toBe(true);
    expect(creditFull(0, 0)).toBe(true);
  });

  it('follows a run while it is queued or running', () => {
    expect(runActive({ status: 'queued' })).toBe(true);
    expect(runActive({ status: 'running' })).toBe(true);
    expect(runActive({ status: 'ok' })).toBe(false);
    expect(runActive(null)).toBe(false);
  });

  it('asks for the schedule fields of the frequency', () => {
    expect(scheduleFields('daily')).toEqual({ at: true, weekday: false, day: false });
    expect(scheduleFields('weekly').weekday).toBe(true);
    expect(scheduleFields('monthly').day).toBe(true);
  });

  it('edits excludes one a line, blank lines dropped', () => {
    expect(textToExcludes(' cache \n\n*.log\n')).toEqual(['cache', '*.log']);
    expect(excludesToText(['a', 'b'])).toBe('a\nb');
  });

  it('says what a restore replaces and that the previous is kept', () => {
    const replace = restoreConsequence('database', 'shop', 'replace');
    expect(replace).toContain('The whole database shop is replaced');
    expect(replace).toContain('kept aside');
    expect(restoreConsequence('webapp', 'blog', 'new', { name: 'staging' })).toContain(
      'restored into the web app staging',
    );
    expect(restoreConsequence('webapp', 'blog', 'path', { path: 'wp-content' })).toContain(
      'wp-content in blog is put back',
    );
  });

  it('names what a restore kept, and what keeping the restore deletes', () => {
    const when = (iso: string) => iso.slice(0, 10);
    const files = keptCopyWords(
      {
        kind: 'files',
        previous: '/home/shopper/apps/shop.before-restore-20261128093000',
        created_at: '2026-11-28T09:30:00Z',
      },
      when,
    );
    expect(files.notice).toBe(
      'Restored on 2026-11-28: the previous files are kept in /home/shopper/apps/shop.before-restore-20261128093000.',
    );
    expect(files.button).toBe('Keep the restored files');
    expect(files.confirm).toContain(
      'The folder /home/shopper/apps/shop.before-restore-20261128093000',
    );
    expect(files.confirm).toContain('is deleted');
    const db = keptCopyWords(
      { kind: 'database', previous: 'shopdb_before_20261128093000', created_at: '2026-11-28' },
      when,
    );
    expect(db.button).toBe('Keep the restored database');
    expect(db.confirm).toContain('The database shopdb_before_20261128093000');
  });
});
