/**
 * The file manager's shared vocabulary (spec "File or folder listing", section 7 "File
 * manager"): paths inside an app's folder, modes, the listing's entries and the limits. Loaded
 * by the panel, the agent and the browser alike, so a value is checked the same way everywhere.
 */
import { z } from 'zod';

/** Entries a listing page may hold (a 100,000-entry folder is read a page at a time). */
export const MAX_PER_PAGE = 500;
export const DEFAULT_PER_PAGE = 100;
/**
 * Bytes of one read or written piece: the agent's answers travel in socket.io messages the
 * panel caps at 1 MB, so a piece (base64, 4/3 larger) stays well under it.
 */
export const PIECE_BYTES = 512 * 1024;
/** The editor opens text files up to this size (one piece). */
export const MAX_EDIT_BYTES = PIECE_BYTES;
/** An upload's size, decoded; the body carries it as base64. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const MAX_UPLOAD_BASE64 = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;
/** What an archive may expand to before extracting is refused. */
export const ARCHIVE_LIMITS = { maxFiles: 10_000, maxBytes: 1024 ** 3 };

const SEGMENT_BYTES = 255;

/** NUL, line breaks and the other control characters: never in a path. */
const hasControl = (s: string) =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * A path inside the app's folder, `/` being the folder itself (`/public/index.php`). No NUL or
 * other control character, no `..` segment, no segment longer than a file name may be: the
 * agent still resolves it and refuses anything whose real path leaves the folder.
 */
export const appPath = z
  .string()
  .max(4096)
  .refine((p) => !hasControl(p), 'A path holds no control characters')
  .refine((p) => !p.split('/').includes('..'), 'A path stays inside the app (no .. segments)')
  .refine(
    (p) => p.split('/').every((s) => new TextEncoder().encode(s).length <= SEGMENT_BYTES),
    'A name is at most 255 bytes',
  )
  .transform(normalizePath);

/** One name in a folder (a new file's, a rename's, an archive's). */
export const entryName = z
  .string()
  .min(1, 'A name is needed')
  .max(SEGMENT_BYTES)
  .refine((n) => !n.includes('/') && !hasControl(n), 'A name holds no / or control characters')
  .refine((n) => n !== '.' && n !== '..', 'Not . or ..');

/**
 * Permissions as octal digits. Setuid and setgid bits are refused: a file of the web folder that
 * another program could run as the app's user (or group) is a way into the account, and no web
 * app needs one; the sticky bit (a shared upload folder) is allowed.
 */
export const fileMode = z
  .string()
  .regex(/^[0-7]{3,4}$/, 'Three or four octal digits, such as 644 or 0755')
  .refine((m) => m.length === 3 || m[0] === '0' || m[0] === '1', 'No setuid or setgid bits');

/** `/a/./b//c/` → `/a/b/c`; the root is `/`. */
export function normalizePath(p: string): string {
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  return `/${parts.join('/')}`;
}

export const dirOf = (p: string) => normalizePath(p.split('/').slice(0, -1).join('/'));
export const baseOf = (p: string) => p.split('/').filter(Boolean).at(-1) ?? '';
export const joinPath = (dir: string, name: string) => normalizePath(`${dir}/${name}`);

export const entryType = z.enum(['file', 'dir', 'link', 'other']);

/** A file or folder of a listing (the spec's path, dir_path, name, with what a table shows). */
export const fileEntry = z.object({
  path: z.string(),
  dir_path: z.string(),
  name: z.string(),
  type: entryType,
  size: z.number().int(),
  /** Octal, four digits (`0644`). */
  mode: z.string(),
  /** Milliseconds since the epoch. */
  mtime: z.number(),
  /** A link's target, as written (never followed). */
  target: z.string().nullable(),
});

export const listing = z.object({
  path: z.string(),
  data: z.array(fileEntry),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

/** An opened file: the spec's fields, with what the editor needs to save it back safely. */
export const fileContent = z.object({
  path: z.string(),
  dir_path: z.string(),
  name: z.string(),
  /** Base64 of the file's bytes. */
  file_content: z.string(),
  size: z.number().int(),
  mtime: z.number(),
  /** The version saved against: a save with another one is refused (409), never overwrites. */
  etag: z.string(),
  /** NUL bytes in its start: the editor does not open it. */
  binary: z.boolean(),
});

export const PROCESS_ACTIONS = [
  'copy',
  'move',
  'rename',
  'compress',
  'extract',
  'permissions',
] as const;
export const processAction = z.enum(PROCESS_ACTIONS);
export const archiveFormat = z.enum(['zip', 'tar.gz']);

/** The folder an archive extracts into: its name without the archive's extension. */
export function extractFolderOf(name: string): string {
  const bare = name.replace(/\.(zip|tar\.gz|tgz)$/i, '');
  return bare && bare !== name ? bare : `${name}-files`;
}

export const archiveFormatOfName = (name: string): 'zip' | 'tar.gz' | null =>
  /\.zip$/i.test(name) ? 'zip' : /\.(tar\.gz|tgz)$/i.test(name) ? 'tar.gz' : null;

export const etagOf = (mtimeMs: number, size: number) => `${Math.trunc(mtimeMs)}-${size}`;
