/**
 * What reaches restic's argv or its environment, checked first: tags, host, snapshot ids,
 * database names and excludes against allowlists, and paths resolved (symlinks followed) and
 * kept inside an allowed root. Nothing unchecked is ever passed on.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { opFieldError } from '../../agent/lib/opError';
import { DB_NAME, RESERVED_DATABASES } from '../databases/api';

/**
 * A snapshot's tags: `app:<id>`, `db:<id>`, `type:webapp|database` and the like. No comma (restic
 * splits `--tag a,b` into two) and a known kind, so forget's `--tag` filter means what it says.
 * Never a tag that changes from run to run (a run id): forget groups by host and the whole tag
 * set, and each run would be a group of its own that no keep-* rule ever thins out.
 */
export const TAG = /^(app|db|type|user|policy):[A-Za-z0-9._-]{1,64}$/;
/** `--host`: the server's uuid (any host-name-like word). */
export const HOST = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A snapshot named by its id (full or the 8-digit short one); `latest` is never guessed. */
export const SNAPSHOT_ID = /^[0-9a-f]{8,64}$/;

export const tagSchema = z.string().regex(TAG, 'A tag is kind:value (app, db, type, user, policy)');
export const hostSchema = z.string().regex(HOST, 'A host is the server uuid');
export const snapshotSchema = z.string().regex(SNAPSHOT_ID, 'A snapshot id is hex');
export const databaseSchema = z
  .string()
  .regex(DB_NAME, 'A database name is letters, digits and _')
  .refine((n) => !RESERVED_DATABASES.includes(n.toLowerCase()), "MariaDB's own database");
/** No control character (NUL, line breaks, escapes): what restic or a log line could misread. */
export const printable = (s: string) => ![...s].some((c) => c.charCodeAt(0) < 32 || c === '\x7f');

/** An exclude pattern, one argv element (`--exclude=<p>`): printable, no line breaks. */
export const excludeSchema = z
  .string()
  .min(1)
  .max(255)
  .refine(printable, 'An exclude is one line of text');

/** Where a repository is: a local path, or restic's rest:, s3:, sftp: backends. */
export const repositorySchema = z
  .string()
  .max(2000)
  .regex(/^(\/|rest:https?:\/\/|s3:|sftp:)/, 'A repository is a path or a URL')
  .refine(printable, 'A repository is one line of text');

/** Throws the zod message as an error at `field`, or returns the parsed value. */
export function checked<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw opFieldError(field, r.error.issues[0]?.message ?? `Invalid ${field}`);
  return r.data;
}

const inside = (child: string, root: string) =>
  child !== root && child.startsWith(root.endsWith('/') ? root : `${root}/`);

/** An absolute path as given (no `..`, no trailing slash), or an error at `field`. */
function absolute(p: string, field: string): string {
  if (!path.isAbsolute(p) || path.resolve(p) !== p || !printable(p))
    throw opFieldError(field, `${field} must be an absolute path`);
  return p;
}

/** The real paths of the allowed roots (those that exist). */
async function roots(allowed: readonly string[]): Promise<string[]> {
  const real = await Promise.all(allowed.map((r) => realpath(absolute(r, 'root')).catch(() => '')));
  return real.filter(Boolean);
}

/**
 * An existing folder strictly inside an allowed root, by its real path (the one to use from here
 * on: a symlink swapped in later cannot redirect the run).
 */
export async function confinedDir(p: string, allowed: readonly string[], field: string) {
  const real = await realpath(absolute(p, field)).catch(() => {
    throw opFieldError(field, `${p} does not exist`);
  });
  if (!(await roots(allowed)).some((root) => inside(real, root)))
    throw opFieldError(field, `${p} is outside the allowed folders`);
  if (!(await lstat(real)).isDirectory()) throw opFieldError(field, `${p} is not a folder`);
  return real;
}

/**
 * A path that does not exist yet, whose parent folder exists inside (or is) an allowed root:
 * where a restore writes. Returned with the parent's real path.
 */
export async function confinedNewPath(p: string, allowed: readonly string[], field: string) {
  absolute(p, field);
  const parent = await realpath(path.dirname(p)).catch(() => {
    throw opFieldError(field, `The folder of ${p} does not exist`);
  });
  const ok = (await roots(allowed)).some((root) => parent === root || inside(parent, root));
  if (!ok) throw opFieldError(field, `${p} is outside the allowed folders`);
  const target = path.join(parent, path.basename(p));
  const there = await lstat(target).then(
    () => true,
    () => false,
  );
  if (there) throw opFieldError(field, `${p} exists already: a restore goes to a new folder`);
  return target;
}
