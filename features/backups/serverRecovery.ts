/**
 * The account's recovery key (research 1.4): a second restic key in every repository of the
 * account, beside the panel's own password, so plain `restic` opens them the day the panel is
 * gone. Made (or replaced) on request and shown once, with a sheet of where each repository is;
 * the panel keeps it sealed only to add it to repositories made later. The panel runs
 * `restic key add` itself (on its own storage by the local path, on S3 with the target's keys);
 * an SFTP repository through ssh with the account's key and the pinned host keys. A repository
 * the panel cannot reach is listed as not covered, with the reason, and tried again nightly.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type PanelRepo, addKey, removeKey } from './serverPanelRestic';
import { withTargetRepo } from './serverTargetFiles';
import { panelRepositoryUrl, targetOfStore, targetRow } from './serverStores';
import type { BackupStoreRow } from './serverTables';

const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

/** 32 random bytes, base32-ish in groups of 4 for reading aloud and typing: never ambiguous. */
function newKey(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(32);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** Where one repository is and how plain restic opens it (no password: that is the key). */
export interface SheetLine {
  server: string;
  storage: string;
  repository: string;
  /** The recovery key opens it already; false: added on the next attempt (words in `note`). */
  covered: boolean;
  note: string | null;
}

/**
 * Runs fn with how the panel itself opens a store: its own storage by the local path, an S3 one
 * by its address and keys, an SFTP one through ssh with the account's key and the pinned host
 * keys (written for fn only): the panel reaches them as the servers do.
 */
async function withPanelRepo<T>(
  app: FastifyInstance,
  store: BackupStoreRow,
  fn: (repo: PanelRepo) => Promise<T>,
): Promise<T> {
  const password = app.services.box.open(store.password);
  if (store.target_id === null) {
    if (!store.repository_uuid) throw new Error(`backup store ${store.id} has no repository`);
    return fn({ path: app.services.backupRepositories.localPath(store.repository_uuid), password });
  }
  const target = await targetRow(app, store.target_id);
  if (!target) throw new Error('The storage is gone');
  const opened = await targetOfStore(app, store, target);
  return withTargetRepo(opened, fn);
}

/**
 * Puts the account's current recovery key into one store (an initialized repository): adds it,
 * records its id, and removes the key it replaces. Idempotent: a store that has it is left.
 */
export async function keyStore(
  app: FastifyInstance,
  store: BackupStoreRow,
): Promise<string | null> {
  if (!store.initialized_at) return 'The repository is made on its first backup';
  const key = await app.db
    .selectFrom('backup_recovery_keys')
    .selectAll()
    .where('user_id', '=', store.user_id)
    .executeTakeFirst();
  if (!key) return null;
  const held = await app.db
    .selectFrom('backup_store_keys')
    .selectAll()
    .where('store_id', '=', store.id)
    .executeTakeFirst();
  if (held?.key_created_at === key.created_at) return null;
  let keyId: string;
  try {
    keyId = await withPanelRepo(app, store, (repo) =>
      addKey(repo, app.services.box.open(key.secret)),
    );
  } catch (error) {
    return error instanceof Error ? error.message : 'The storage cannot be opened';
  }
  const row = { key_id: keyId, key_created_at: key.created_at, added_at: stamp(app) };
  await app.db
    .insertInto('backup_store_keys')
    .values({ store_id: store.id, ...row })
    .onConflict((oc) => oc.column('store_id').doUpdateSet(row))
    .execute();
  if (held) {
    await withPanelRepo(app, store, (repo) => removeKey(repo, held.key_id)).catch((err: unknown) =>
      app.log.warn({ err, store: store.id }, 'an old recovery key stayed in the repository'),
    );
  }
  return null;
}

/** The recovery key's state, never the key: when it was made and which repositories hold it. */
export async function recoveryStatus(app: FastifyInstance, uid: number) {
  const key = await app.db
    .selectFrom('backup_recovery_keys')
    .select('created_at')
    .where('user_id', '=', uid)
    .executeTakeFirst();
  const stores = await app.db
    .selectFrom('backup_stores')
    .leftJoin('backup_store_keys', 'backup_store_keys.store_id', 'backup_stores.id')
    .select(['backup_stores.id', 'backup_store_keys.key_created_at'])
    .where('backup_stores.user_id', '=', uid)
    .execute();
  const covered = key ? stores.filter((s) => s.key_created_at === key.created_at).length : 0;
  return { created_at: key?.created_at ?? null, repositories: stores.length, covered };
}

/**
 * Makes a new recovery key (replacing the one before in every repository) and answers it with
 * the sheet of repositories: the only time the key is shown.
 */
export async function makeRecoveryKey(app: FastifyInstance, uid: number) {
  const key = newKey();
  const created_at = stamp(app);
  const values = { secret: app.services.box.seal(key), created_at };
  await app.db
    .insertInto('backup_recovery_keys')
    .values({ user_id: uid, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  const stores = await app.db
    .selectFrom('backup_stores')
    .leftJoin('servers', 'servers.id', 'backup_stores.server_id')
    .leftJoin('backup_targets', 'backup_targets.id', 'backup_stores.target_id')
    .selectAll('backup_stores')
    .select(['servers.name as server_name', 'backup_targets.name as target_name'])
    .where('backup_stores.user_id', '=', uid)
    .orderBy('backup_stores.id')
    .execute();
  const sheet: SheetLine[] = [];
  for (const store of stores) {
    const note = await keyStore(app, store);
    sheet.push({
      server: store.server_name ?? `removed server #${store.server_id}`,
      storage: store.target_name ?? 'Panel storage',
      repository: repositoryOf(app, store),
      covered: note === null,
      note,
    });
  }
  return { key, created_at, sheet };
}

/** The address plain restic uses: the panel storage's REST URL with its secret, or the target's. */
function repositoryOf(app: FastifyInstance, store: BackupStoreRow): string {
  if (store.target_id === null && store.repository_uuid && store.rest_secret)
    return panelRepositoryUrl(
      app.config.publicUrl,
      store.repository_uuid,
      app.services.box.open(store.rest_secret),
    );
  return store.location ?? '';
}
