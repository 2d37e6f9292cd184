/**
 * File manager and editor (issue 12, spec "File manager", /file-manager/{id}, /file-editor/{id}):
 * a live view of an app's folder, read and changed by the agent as the app's system user. No
 * table: the files are the server's, and every call asks the agent.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { appName } from '../webapps/api';
import {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  MAX_UPLOAD_BASE64,
  PIECE_BYTES,
  appPath,
  archiveFormat,
  entryName,
  fileContent,
  fileEntry,
  fileMode,
  listing,
  processAction,
} from './names';

const wsid = z.coerce.number().int().positive();
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Base64 text');

export const fsQuery = z.object({
  wsid,
  path: appPath.default('/'),
  /** true: the folder's listing; false: the file's content (the editor, a download). */
  is_dir: bool.default(true),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
  /** With is_dir=false: the file's bytes as a download (streamed), not the editor's JSON. */
  download: bool.default(false),
});

/** Create a file or folder, upload one, or save the editor's text. */
export const fsWrite = z.object({
  dir_path: appPath,
  name: entryName,
  is_dir: z.boolean().default(false),
  /** Base64 of the file's bytes (empty for a new empty file). */
  file_content: base64.max(MAX_UPLOAD_BASE64).default(''),
  /** Saving over a file: the etag it was opened with; without one, an existing file is refused. */
  etag: z.string().max(64).optional(),
});

export const fsDeleteQuery = z.object({
  wsid,
  path: appPath.refine((p) => p !== '/', "The app's folder itself is not deleted here"),
  /** true (the default): moved to the user's ~/.trash/<time>/; false: deleted for good. */
  trash: bool.default(true),
});

export const processQuery = z.object({ wsid, action: processAction });

/** The action's fields: what it works on, and where the result goes. */
export const processBody = z.object({
  paths: z.array(appPath).min(1).max(500),
  /** copy, move: the folder they go into. */
  destination: appPath.optional(),
  /** rename: the new name; compress: the archive's name. */
  name: entryName.optional(),
  mode: fileMode.optional(),
  format: archiveFormat.default('zip'),
});

export const processAnswer = z.object({ done: z.array(z.string()) });
export const wsdirsAnswer = z.object({ dirs: z.array(z.string()) });

const server = 'servers/{sid}/users/{uid}';

export const files = defineResource({
  name: 'files',
  label: 'File manager',
  parent: 'app',
  schema: fileEntry.extend({ id: z.string() }),
  paths: {},
  ops: {},
  actions: {
    read: {
      method: 'GET',
      path: `fs/${server}`,
      guard: 'self',
      summary:
        "A page of a folder of the app (folders first, then by name; is_dir=true), or a file's content as base64 (is_dir=false; download=true streams its bytes)",
      query: fsQuery,
      response: z.union([listing, fileContent]),
    },
    write: {
      method: 'POST',
      path: `fs/${server}`,
      guard: 'self',
      summary:
        'Creates a file or folder, uploads a file (base64), or saves a file over the version it was opened as (etag; 409 when it changed since)',
      query: z.object({ wsid }),
      body: fsWrite,
      response: fileEntry,
      status: 201,
      bodyLimit: MAX_UPLOAD_BASE64 + 64 * 1024,
    },
    remove: {
      method: 'DELETE',
      path: `fs/${server}`,
      guard: 'self',
      summary: "Moves a file or folder to the user's trash (~/.trash/<time>/), or deletes it",
      query: fsDeleteQuery,
      response: z.object({ path: z.string(), trash: z.string().nullable() }),
    },
    process: {
      method: 'POST',
      path: `fs/process/${server}`,
      guard: 'self',
      summary:
        'Copies, moves, renames, compresses (zip, tar.gz), extracts (checked first) or changes the permissions of files of the app',
      query: processQuery,
      body: processBody,
      response: processAnswer,
    },
    dirs: {
      method: 'GET',
      path: `wsdirs/webstacks/{appId}/${server}`,
      guard: 'self',
      summary: "The app's folders, three levels deep (for choosing one)",
      response: wsdirsAnswer,
    },
  },
});

export const resources = { files };

const where = { user: systemUserName, app: appName };
const pieceBase64 = base64.max(Math.ceil(PIECE_BYTES / 3) * 4);

export const ops = {
  'files.list': op(
    z.object({
      ...where,
      path: appPath,
      page: z.number().int().min(1),
      per_page: z.number().int().min(1).max(MAX_PER_PAGE),
    }),
    listing,
  ),
  /** A piece of a file from `offset` (the editor's whole file, or a download's next piece). */
  'files.read': op(
    z.object({ ...where, path: appPath, offset: z.number().int().min(0) }),
    fileContent.extend({ eof: z.boolean() }),
  ),
  /**
   * Writes a new file (`new`: refused when the name exists), the editor's save (`replace`:
   * refused unless the file is still at `etag`) or an upload's next piece (`append` at `offset`).
   */
  'files.write': op(
    z.object({
      ...where,
      path: appPath,
      how: z.enum(['new', 'replace', 'append']),
      data: pieceBase64,
      etag: z.string().max(64).nullable(),
      offset: z.number().int().min(0),
    }),
    fileEntry.extend({ etag: z.string() }),
  ),
  'files.mkdir': op(z.object({ ...where, path: appPath }), fileEntry),
  'files.delete': op(
    z.object({ ...where, path: appPath, trash: z.boolean() }),
    z.object({ path: z.string(), trash: z.string().nullable() }),
    120_000,
  ),
  'files.process': op(
    z.object({
      ...where,
      action: processAction,
      paths: z.array(appPath).min(1).max(500),
      destination: appPath.nullable(),
      name: entryName.nullable(),
      mode: fileMode.nullable(),
      format: archiveFormat,
    }),
    processAnswer,
    600_000,
  ),
  'files.dirs': op(z.object(where), wsdirsAnswer),
};
