/**
 * GET backup-files/{fileId}/download: the panel runs `restic dump` itself: a database's dump as
 * `<db>.sql`, an app's files as a tar (`--archive tar`), streamed with a Content-Disposition. Its
 * own storage by the local path; S3 and SFTP as the servers reach them, the storage's key, host
 * keys or CA written to files that stay until the stream has ended (serverTargetFiles.ts).
 */
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../../server/http/errors';
import { type PanelRepo, dump } from './serverPanelRestic';
import type { BackupFileRow } from './serverLoaders';
import { existingStore } from './serverRunStore';
import { withTargetRepo } from './serverTargetFiles';
import type { OpTarget } from './serverStores';

/**
 * The stream of `open(repo)` on a storage the panel reaches as the servers do: the files restic
 * reads (key, host keys, CA) are removed once the stream has ended, failed or been dropped.
 */
function remoteStream(target: OpTarget, open: (repo: PanelRepo) => Readable): Promise<Readable> {
  return new Promise((resolve, reject) => {
    withTargetRepo(target, async (repo) => {
      const stream = open(repo);
      resolve(stream);
      await finished(stream).catch(() => undefined);
    }).catch(reject);
  });
}

/** A file name safe in a header: letters, digits, `._-` only. */
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'backup';

export async function downloadFile(
  app: FastifyInstance,
  file: BackupFileRow,
  reply: FastifyReply,
): Promise<unknown> {
  if (!file.snapshot_id || file.removed || (file.status !== 'ok' && file.status !== 'partial'))
    throw new HttpError(409, 'This backup file holds no snapshot to download');
  const store = await existingStore(app, file.policy).catch(() => null);
  if (!store) throw new HttpError(409, 'This backup has no storage');
  const policy = file.policy;
  const snapshot = file.snapshot_id;
  const day = file.created_at.slice(0, 10);
  const database = policy.type === 'database';
  const open = (repo: PanelRepo) =>
    database
      ? dump(repo, snapshot, `/${policy.subject}.sql`)
      : dump(repo, snapshot, '/', { archive: true });
  const stream = store.panel ? open(store.panel) : await remoteStream(store.target, open);
  const name = `${safe(policy.subject)}-${day}.${database ? 'sql' : 'tar'}`;
  reply.header('content-type', database ? 'application/sql' : 'application/x-tar');
  reply.header('content-disposition', `attachment; filename="${name}"`);
  reply.header('cache-control', 'no-store');
  return reply.send(stream);
}
