import { describe, expect, it } from 'vitest';
import { recoverySheet } from '../../features/backups/recoverySheet';

describe('the recovery key file', () => {
  it('holds the key, each repository, what is not covered and the restic commands', () => {
    const text = recoverySheet({
      key: 'abcd-efgh',
      created_at: '2026-11-28T07:00:00.000Z',
      sheet: [
        {
          server: 'web1',
          storage: 'Panel storage',
          repository: 'rest:https://u:s@panel.example/restic/u/',
          covered: true,
          note: null,
        },
        {
          server: 'web1',
          storage: 'offsite',
          repository: 'sftp:backup@host:/srv',
          covered: false,
          note: 'The backup storage cannot be reached',
        },
      ],
    });
    expect(text).toContain('Key: abcd-efgh');
    expect(text).toContain('- web1, Panel storage: rest:https://u:s@panel.example/restic/u/');
    expect(text).toContain('Not opened by this key yet: The backup storage cannot be reached');
    expect(text).toContain("export RESTIC_PASSWORD='abcd-efgh'");
    expect(text).toContain('restic dump <snapshot> /<database>.sql | mariadb <new database>');
  });

  it('says when no repository exists yet', () => {
    const text = recoverySheet({ key: 'k', created_at: 'now', sheet: [] });
    expect(text).toContain('repositories made later get this key');
  });
});
