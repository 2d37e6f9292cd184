import type { Db } from './db/database';
import { serverFeatures } from './features.gen';

/** Everything the features run as a system user of a server: web apps, cron jobs, programs. */
export async function usesOfSystemUser(
  db: Db,
  serverId: number,
  userName: string,
): Promise<string[]> {
  const uses = await Promise.all(
    serverFeatures.map((f) => f.usersOf?.(db, serverId, userName) ?? Promise.resolve([])),
  );
  return uses.flat();
}
