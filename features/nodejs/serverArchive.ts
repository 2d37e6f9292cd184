/**
 * The uploaded archive's way to the server: in pieces of ARCHIVE_CHUNK_BASE64 (a whole body of
 * 133 MB of base64 would pass the agent connection's message limit), hashed on the way so the
 * agent can tell it arrived whole before it unpacks it (agentArchive.ts).
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { HandlerContext } from '../../server/http/handlers';
import { stepOp } from '../installers/serverApi';
import { ARCHIVE_CHUNK_BASE64, type archiveUpload, archiveFormatOf } from './names';

type Archive = z.output<typeof archiveUpload>;

export const megabytes = (base64: string) =>
  `${((base64.length * 3) / 4 / 1024 ** 2).toFixed(1)} MB`;

/** Sends the archive, then has it unpacked into the app's code as its user. */
export async function sendArchive(
  ctx: HandlerContext,
  taskId: number,
  app: { name: string; sys_user: string },
  archive: Archive,
): Promise<void> {
  const hash = createHash('sha256');
  let offset = 0;
  for (let at = 0; at < archive.data.length; at += ARCHIVE_CHUNK_BASE64) {
    // A multiple of 4 characters: each piece decodes on its own.
    const data = archive.data.slice(at, at + ARCHIVE_CHUNK_BASE64);
    hash.update(Buffer.from(data, 'base64'));
    ({ bytes: offset } = await stepOp(ctx, taskId, 'node.receive', {
      app: app.name,
      offset,
      data,
    }));
  }
  await stepOp(ctx, taskId, 'node.unpack', {
    user: app.sys_user,
    app: app.name,
    format: archiveFormatOf(archive.file_name),
    bytes: offset,
    sha256: hash.digest('hex'),
  });
}
