import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type BackupProgress,
  BackupReader,
  splitLines,
} from '../../features/backups/agentResticProgress';

// Recorded from restic 0.14.0 (Debian): `restic backup --json --limit-upload 1024 .` of a folder
// of three files (5 MB), RESTIC_PROGRESS_FPS=2, and a line of a larger run with current_files.
const RUN = [
  '{"message_type":"status","percent_done":0,"total_files":1,"total_bytes":3145728}',
  '{"message_type":"status","seconds_elapsed":1,"percent_done":1,"total_files":3,"files_done":3,"total_bytes":5242886,"bytes_done":5242886}',
  '{"message_type":"status","seconds_elapsed":2,"percent_done":1,"total_files":3,"files_done":3,"total_bytes":5242886,"bytes_done":5242886}',
  '{"message_type":"status","seconds_elapsed":3,"percent_done":1,"total_files":3,"files_done":3,"total_bytes":5242886,"bytes_done":5242886}',
  '{"message_type":"summary","files_new":3,"files_changed":0,"files_unmodified":0,"dirs_new":0,"dirs_changed":0,"dirs_unmodified":0,"data_blobs":7,"tree_blobs":1,"data_added":5244204,"total_files_processed":3,"total_bytes_processed":5242886,"total_duration":4.248126777,"snapshot_id":"5ef7c87f"}',
];
const MIDWAY =
  '{"message_type":"status","seconds_elapsed":1,"seconds_remaining":1,"percent_done":0.7936404546101888,"total_files":1,"total_bytes":314572800,"bytes_done":249657700,"current_files":["/tmp/rt/big"]}';
// stderr of a run as root without CAP_DAC_OVERRIDE over a chmod 000 file (exit 3).
const UNREADABLE =
  '{"message_type":"error","error":{"Op":"open","Path":"b","Err":13},"during":"archival","item":"/tmp/rt/src/b"}';

describe('restic --json lines', () => {
  it('reports status at most once a second (the first at once) and reads the summary', () => {
    let t = 0;
    const seen: BackupProgress[] = [];
    const reader = new BackupReader(
      (p) => seen.push(p),
      1000,
      () => t,
    );
    const at = [0, 400, 1000, 1900, 2500];
    RUN.forEach((line, i) => {
      t = at[i]!;
      reader.line(line);
    });
    expect(seen).toEqual([
      { percent: 0, files_done: 0, total_files: 1, bytes_done: 0, total_bytes: 3145728 },
      // 400 ms: dropped; 1000 ms: reported; 1900 ms: dropped.
      { percent: 100, files_done: 3, total_files: 3, bytes_done: 5242886, total_bytes: 5242886 },
    ]);
    expect(reader.summary).toEqual({
      snapshot_id: '5ef7c87f',
      files_new: 3,
      files_changed: 0,
      files_unmodified: 0,
      data_added: 5244204,
      total_files_processed: 3,
      total_bytes_processed: 5242886,
      total_duration: 4.248126777,
    });
  });

  it('rounds the percentage down, and skips what is not JSON', () => {
    const seen: BackupProgress[] = [];
    const reader = new BackupReader((p) => seen.push(p));
    reader.line('restoring <Snapshot 26f68935 of [/tmp/rt/app] at 2026-11-28 by root@h1> to /x');
    reader.line('{"message_type":"status", broken');
    reader.line(MIDWAY);
    expect(seen).toEqual([
      {
        percent: 79,
        files_done: 0,
        total_files: 1,
        bytes_done: 249657700,
        total_bytes: 314572800,
        current_file: '/tmp/rt/big',
      },
    ]);
    expect(reader.summary).toBeNull();
  });

  it('keeps the files restic could not read, in words', () => {
    const reader = new BackupReader();
    reader.errorLine(UNREADABLE);
    reader.errorLine('Warning: at least one source file could not be read');
    expect(reader.unreadable).toEqual([{ item: '/tmp/rt/src/b', error: 'permission denied' }]);
  });

  it('splits a stream into lines across chunk borders', async () => {
    const lines: string[] = [];
    const joined = RUN.join('\n');
    const stream = Readable.from([joined.slice(0, 50), joined.slice(50, 333), joined.slice(333)]);
    splitLines(stream, (l) => lines.push(l));
    await new Promise((r) => stream.on('end', r));
    expect(lines).toEqual(RUN);
  });
});
