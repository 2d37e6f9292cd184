import { Readable } from 'node:stream';
import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { fieldError } from '../../server/http/errors';
import {
  type ActionContext,
  type ActionName,
  type HandlerContext,
  defineHandlers,
  webappOf,
} from '../../server/http/handlers';
import { contentDisposition } from '../../server/http/contentDisposition';
import { MAX_EDIT_BYTES, PIECE_BYTES, archiveFormatOfName, joinPath } from './names';
import { files } from './resource';

type AppCtx = HandlerContext<unknown, unknown>;
/** The context of one of the declared calls: its query and body as validated. */
type Call<K extends ActionName<typeof files>> = ActionContext<typeof files, K>;
const where = (ctx: AppCtx) => ({ user: webappOf(ctx).sys_user, app: webappOf(ctx).name });

/**
 * A file's bytes to the client, piece by piece as the agent reads them as the app's user: the
 * panel never holds the whole file. A file that changes while it is sent ends the download with
 * an error rather than a mix of two versions.
 */
async function download(ctx: AppCtx, path: string) {
  const first = await readOp(ctx, 'files.read', { ...where(ctx), path, offset: 0 });
  async function* pieces() {
    let piece = first;
    let offset = 0;
    for (;;) {
      const bytes = Buffer.from(piece.file_content, 'base64');
      yield bytes;
      offset += bytes.length;
      if (piece.eof || bytes.length === 0) return;
      piece = await readOp(ctx, 'files.read', { ...where(ctx), path, offset });
      if (piece.etag !== first.etag) throw new Error(`${path} changed during the download`);
    }
  }
  ctx.reply
    .code(200)
    .header('content-type', 'application/octet-stream')
    .header('content-length', String(first.size))
    .header('content-disposition', contentDisposition(first.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  return ctx.reply.send(Readable.from(pieces()));
}

async function read(ctx: Call<'read'>) {
  const q = ctx.query;
  if (q.is_dir)
    return readOp(ctx, 'files.list', {
      ...where(ctx),
      path: q.path,
      page: q.page,
      per_page: q.per_page,
    });
  if (q.download) return download(ctx, q.path) as never;
  const got = await readOp(ctx, 'files.read', { ...where(ctx), path: q.path, offset: 0 });
  if (got.size > MAX_EDIT_BYTES)
    throw fieldError(
      'path',
      `${got.name} is ${got.size} bytes: the editor opens files up to ${MAX_EDIT_BYTES} (download it instead)`,
    );
  return got;
}

/** A new folder, a new file (an upload: sent in pieces), or the editor's save over a version. */
async function write(ctx: Call<'write'>) {
  const body = ctx.body;
  const path = joinPath(body.dir_path, body.name);
  if (body.is_dir)
    return runOp(ctx, `Created the folder ${path} of ${webappOf(ctx).name}`, 'files.mkdir', {
      ...where(ctx),
      path,
    });
  const bytes = Buffer.from(body.file_content, 'base64');
  if (body.etag !== undefined) {
    if (bytes.length > PIECE_BYTES)
      throw fieldError('file_content', `The editor saves files up to ${PIECE_BYTES} bytes`);
    return runOp(ctx, `Saved ${path} of ${webappOf(ctx).name}`, 'files.write', {
      ...where(ctx),
      path,
      how: 'replace',
      data: body.file_content,
      etag: body.etag,
      offset: 0,
    });
  }
  return runOp(ctx, `Uploaded ${path} to ${webappOf(ctx).name}`, 'files.write', {
    ...where(ctx),
    path,
    how: 'new',
    data: bytes.subarray(0, PIECE_BYTES).toString('base64'),
    etag: null,
    offset: 0,
  }).then(async (made) => {
    let last = made;
    for (let at = PIECE_BYTES; at < bytes.length; at += PIECE_BYTES)
      last = await readOpWrite(ctx, path, bytes.subarray(at, at + PIECE_BYTES), at);
    return last;
  });
}

/** An upload's next piece (one activity line stands for the whole upload). */
const readOpWrite = (ctx: AppCtx, path: string, piece: Buffer, offset: number) =>
  readOp(ctx, 'files.write', {
    ...where(ctx),
    path,
    how: 'append',
    data: piece.toString('base64'),
    etag: null,
    offset,
  });

async function remove(ctx: Call<'remove'>) {
  const q = ctx.query;
  const how = q.trash ? 'Moved to the trash' : 'Deleted';
  return runOp(ctx, `${how} ${q.path} of ${webappOf(ctx).name}`, 'files.delete', {
    ...where(ctx),
    path: q.path,
    trash: q.trash,
  });
}

/** What each action needs, checked before the server is asked (the form shows it at the field). */
async function processFiles(ctx: Call<'process'>) {
  const { action } = ctx.query;
  const body = ctx.body;
  const one = action === 'rename' || action === 'extract';
  if (one && body.paths.length !== 1) throw fieldError('paths', `${action} takes one entry`);
  if ((action === 'copy' || action === 'move') && !body.destination)
    throw fieldError('destination', 'Choose the folder they go into');
  if ((action === 'rename' || action === 'compress') && !body.name)
    throw fieldError('name', action === 'rename' ? 'The new name is needed' : 'Name the archive');
  if (action === 'permissions' && !body.mode)
    throw fieldError('mode', 'The permissions are needed');
  // zip would add its own extension to any other name: the answer would name the wrong file.
  if (action === 'compress' && body.name && archiveFormatOfName(body.name) !== body.format)
    throw fieldError('name', `A ${body.format} archive's name ends in .${body.format}`);
  if (body.paths.includes('/')) throw fieldError('paths', "Not the app's folder itself");
  const what = body.paths.length === 1 ? body.paths[0]! : `${body.paths.length} entries`;
  return runOp(ctx, `${action} ${what} of ${webappOf(ctx).name}`, 'files.process', {
    ...where(ctx),
    action,
    paths: body.paths,
    destination: body.destination ?? null,
    name: body.name ?? null,
    mode: body.mode ?? null,
    format: body.format,
  });
}

export const server = defineServerFeature({
  handlers: [
    defineHandlers(files, {
      actions: {
        read,
        write,
        remove,
        process: processFiles,
        dirs: (ctx) => readOp(ctx, 'files.dirs', where(ctx)),
      },
    }),
  ],
});
