import fs from 'node:fs/promises';
import path from 'node:path';
import { confinedPath } from '../../agent/lib/files';
import { opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, lookupUser } from '../../agent/lib/users';

/**
 * Where a release is unpacked or copied: a folder inside the user's home, reached without
 * links, that does not exist yet, in an existing folder of the user's.
 */
export async function destinationOf(
  destUser: string,
  destDir: string,
): Promise<{ user: PasswdEntry; dest: string; parent: string }> {
  const user = await lookupUser(destUser);
  if (!user) throw opFieldError('dest_user', `No system user ${destUser} on this server`);
  const home = await fs.realpath(user.home).catch(() => null);
  if (!home) throw opFieldError('dest_user', `${destUser} has no home folder`);
  const dest = await confinedPath(home, path.relative(home, path.resolve(destDir))).catch(
    () => null,
  );
  if (!dest || dest === home || !path.resolve(destDir).startsWith(home + path.sep))
    throw opFieldError('dest_dir', `A folder inside ${home}, reached without links`);
  if (await fs.lstat(dest).catch(() => null))
    throw opFieldError('dest_dir', `${dest} exists already`);
  const parent = path.dirname(dest);
  const pstat = await fs.lstat(parent).catch(() => null);
  if (!pstat?.isDirectory() || pstat.uid !== user.uid)
    throw opFieldError('dest_dir', `${parent} must be an existing folder of ${destUser}`);
  return { user, dest, parent };
}
