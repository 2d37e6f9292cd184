import type { RecoveryKey } from './recoveryResource';

/**
 * The recovery key as the text file the user keeps: the key, where each repository is, and the
 * plain restic commands that restore without Stackdeck (the README's recipe). Pure: the page
 * builds the download from the one answer that shows the key.
 */
export function recoverySheet(made: RecoveryKey): string {
  const lines = [
    'Stackdeck backup recovery key',
    `Made: ${made.created_at}`,
    '',
    `Key: ${made.key}`,
    '',
    'Every repository below opens with this key and plain restic (https://restic.net):',
    '',
  ];
  for (const line of made.sheet) {
    lines.push(`- ${line.server}, ${line.storage}: ${line.repository}`);
    if (!line.covered)
      lines.push(`  Not opened by this key yet: ${line.note ?? 'try again later'}`);
  }
  if (made.sheet.length === 0)
    lines.push('- None yet: repositories made later get this key on their first backup.');
  lines.push(
    '',
    'Restore without Stackdeck:',
    `  export RESTIC_PASSWORD='${made.key}'`,
    "  export RESTIC_REPOSITORY='<a repository above>'",
    '  restic snapshots                                   # tags: app:<id>, db:<id>, policy:<id>',
    '  restic restore <snapshot> --target /srv/restored   # an app: its files',
    '  restic dump <snapshot> /<database>.sql | mariadb <new database>',
    '',
  );
  return lines.join('\n');
}
