/**
 * Backs up an app's folder: restic runs in the folder itself and saves `.`, so the snapshot holds
 * the app's files at its root (a restore to a new folder gives the app's tree, and no `--include`
 * has to match an absolute path: in 0.14 one that matches nothing restores nothing, exit 0).
 * Tagged `app:<id>` and `type:webapp`, host = the server's uuid.
 */
import { constants as fsConstants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { z } from 'zod';
import { opFieldError } from '../../agent/lib/opError';
import type { ResticTarget } from './agentRestic';
import { type BackupResult, type RunControls, startBackup } from './agentResticBackup';
import { checked, confinedDir, excludeSchema, hostSchema, tagSchema } from './agentResticInput';
import { retryIfLocked } from './agentRepoMaintenance';

export const ID = /^[A-Za-z0-9._-]{1,64}$/;

export const backupFilesSchema = z.object({
  app_id: z.string().regex(ID),
  /** The app's folder (absolute); must be inside one of the allowed roots. */
  root: z.string().min(1).max(4096),
  host: hostSchema,
  excludes: z.array(excludeSchema).max(100).default([]),
  /** More stable tags (`user:<uid>`, `policy:<id>`). */
  tags: z.array(tagSchema).max(8).default([]),
});
export type BackupFilesInput = z.input<typeof backupFilesSchema>;

/** The tags a policy's snapshots carry (forget filters by the same). */
export const appTags = (appId: string, extra: readonly string[] = []) => [
  `app:${appId}`,
  'type:webapp',
  ...extra,
];

export async function backupFiles(
  target: ResticTarget,
  input: BackupFilesInput,
  options: RunControls & { allowedRoots: readonly string[] },
): Promise<BackupResult> {
  const args = checked(backupFilesSchema, input, 'backup');
  const cwd = await confinedDir(args.root, options.allowedRoots, 'root');
  const tags = checked(z.array(tagSchema), appTags(args.app_id, args.tags), 'tags');
  const argv = [
    '--host',
    args.host,
    ...tags.flatMap((t) => ['--tag', t]),
    ...args.excludes.map((e) => `--exclude=${e}`),
    '--',
    '.',
  ];
  // restic starts in that very folder: opened here, its real path checked again, and handed to
  // the child as /proc/self/fd/N (the child chdirs into the inode, not a path the user could
  // have swapped for a link between the check and the start).
  const folder = await open(cwd, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY);
  try {
    const opened = await realpath(`/proc/self/fd/${folder.fd}`);
    if (opened !== cwd)
      throw opFieldError('root', `${args.root} changed while the backup started: try again`);
    const inFolder = `/proc/self/fd/${folder.fd}`;
    return await retryIfLocked(
      target,
      () => startBackup(target, argv, { ...options, cwd: inFolder }).result,
    );
  } finally {
    await folder.close();
  }
}
