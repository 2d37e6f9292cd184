import type { FastifyInstance } from 'fastify';

type Entry = { at: number; value: unknown };

/**
 * Answers of a server's agent that change rarely (its PHP versions, MariaDB's collations), kept
 * for a while per panel and per server. Held on the panel instance, not in the module: two
 * panels in one process (the API suite runs many) have servers with the same ids.
 */
const caches = new WeakMap<FastifyInstance, Map<string, Entry>>();

export async function cachedServerRead<T>(
  app: FastifyInstance,
  key: { read: string; serverId: number; ttlMs: number },
  read: () => Promise<T>,
): Promise<T> {
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new Map()));
  const name = `${key.read}:${key.serverId}`;
  const hit = cache.get(name);
  if (hit && Date.now() - hit.at < key.ttlMs) return hit.value as T;
  const value = await read();
  cache.set(name, { at: Date.now(), value });
  return value;
}

/** Drops a kept answer after a change that alters it (a PHP version installed). */
export function forgetServerRead(app: FastifyInstance, key: { read: string; serverId: number }) {
  caches.get(app)?.delete(`${key.read}:${key.serverId}`);
}
