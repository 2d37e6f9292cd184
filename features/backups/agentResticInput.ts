/**
 * What reaches restic's argv or its environment, checked first: tags, host, snapshot ids,
 * database names and excludes against allowlists, and paths resolved (symlinks followed) and
 * kept inside an allowed root. Nothing unchecked is ever passed on.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { opFieldError } from '../../agent/lib/opError';

export {
  HOST,
  SNAPSHOT_ID,
  TAG,
  databaseSchema,
  excludeSchema,
  hostSchema,
  printable,
  repositorySchema,
  snapshotSchema,
  tagSchema,
} from './schemas';
import { printable } from './schemas';

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
