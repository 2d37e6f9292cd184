/**
 * One restic repository per (server, target), made on first use: on the panel's own storage a
 * `backup_repositories` row (served at `/restic/<uuid>/`, its REST secret sealed here), on S3 or
 * SFTP a directory of the target named after the server. Each has its own restic password,
 * sealed, handed to the agent with each op (`targetFor`) and never stored there; an SFTP target's
 * op also gets the account's SSH key and the target's pinned host keys.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { targetSchema } from './schemas';
import { accountSshKey } from './serverSshKeys';
import type { BackupStoreRow, BackupTargetRow } from './serverTables';

export type OpTarget = z.input<typeof targetSchema>;

/** What a server row must tell: its id, uuid (the directory on a target) and owner. */
export interface StoreServer {
  id: number;
  uuid: string;
  user_id: number;
}

/** The sealed credentials of an S3 target. */
export interface S3Credentials {
  kind: 's3';
  endpoint: string;
  bucket: string;
  region?: string;
  access_key_id: string;
  secret_access_key: string;
  ca_pem?: string;
}

/** The sealed part of an SFTP target: where it is and its pinned host keys (`type base64`). */
export interface SftpCredentials {
  kind: 'sftp';
  /** The host name or address alone (the port apart). */
  host: string;
  /** ssh's `-p`, when not 22. */
  port?: number;
  user: string;
  path: string;
  host_keys: string[];
}

export type TargetCredentials = S3Credentials | SftpCredentials;

export function openCredentials(app: FastifyInstance, target: BackupTargetRow): TargetCredentials {
  return JSON.parse(app.services.box.open(target.credentials)) as TargetCredentials;
}

const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

/** The repository of a target for one server: its own directory, named after the server. */
export function targetLocation(target: BackupTargetRow, server: StoreServer): string {
  return `${target.location.replace(/\/+$/, '')}/stackdeck-${server.uuid}`;
}

/** The store of (server, target), or undefined before the first use. */
export function findStore(
  app: FastifyInstance,
  serverId: number,
  targetId: number | null,
): Promise<BackupStoreRow | undefined> {
  let query = app.db.selectFrom('backup_stores').selectAll().where('server_id', '=', serverId);
  query =
    targetId === null
      ? query.where('target_id', 'is', null)
      : query.where('target_id', '=', targetId);
  return query.executeTakeFirst();
}

/**
 * The store of (server, target), made on first use. `target` is the loaded target row (the
 * caller loaded it through its owner), or null for the panel's storage.
 */
export async function storeFor(
  app: FastifyInstance,
  server: StoreServer,
  target: BackupTargetRow | null,
): Promise<BackupStoreRow> {
  const found = await findStore(app, server.id, target?.id ?? null);
  if (found) return found;
  const { box } = app.services;
  const password = box.seal(randomBytes(32).toString('base64url'));
  const base = {
    server_id: server.id,
    target_id: target?.id ?? null,
    user_id: target ? target.user_id : server.user_id,
    password,
    initialized_at: null,
    created_at: stamp(app),
  };
  let values;
  let made: { uuid: string } | null = null;
  if (target) {
    values = {
      ...base,
      location: targetLocation(target, server),
      repository_id: null,
      repository_uuid: null,
      rest_secret: null,
    };
  } else {
    const repo = await app.services.backupRepositories.create(server.id);
    made = repo;
    values = {
      ...base,
      location: null,
      repository_id: repo.id,
      repository_uuid: repo.uuid,
      rest_secret: box.seal(repo.secret),
    };
  }
  try {
    return await app.db
      .insertInto('backup_stores')
      .values(values)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    // Another request made it first (the unique index): theirs is the one.
    if (made) await app.services.backupRepositories.remove(made.uuid);
    const raced = await findStore(app, server.id, target?.id ?? null);
    if (raced) return raced;
    throw error;
  }
}

/**
 * The panel storage's repository URL as restic on the server reaches it: restic's REST backend
 * at the panel's public URL, the repository's uuid and secret as the URL's user and password.
 */
export function panelRepositoryUrl(publicUrl: string, uuid: string, secret: string): string {
  const url = new URL(`${publicUrl.replace(/\/+$/, '')}/restic/${uuid}/`);
  url.username = uuid;
  url.password = secret;
  return `rest:${url.toString()}`;
}

/** The op's `target` of a store: the repository, its password, and the storage's keys. */
export async function targetOfStore(
  app: FastifyInstance,
  store: BackupStoreRow,
  target: BackupTargetRow | null,
): Promise<OpTarget> {
  const { box } = app.services;
  const password = box.open(store.password);
  if (!target) {
    if (!store.repository_uuid || !store.rest_secret)
      throw new Error(`backup store ${store.id} has no panel repository`);
    return {
      repository: panelRepositoryUrl(
        app.config.publicUrl,
        store.repository_uuid,
        box.open(store.rest_secret),
      ),
      password,
    };
  }
  const creds = openCredentials(app, target);
  const repository = store.location;
  if (!repository) throw new Error(`backup store ${store.id} has no location`);
  if (creds.kind === 's3') {
    return {
      repository,
      password,
      env: {
        AWS_ACCESS_KEY_ID: creds.access_key_id,
        AWS_SECRET_ACCESS_KEY: creds.secret_access_key,
        ...(creds.region ? { AWS_DEFAULT_REGION: creds.region } : {}),
      },
      // The storage's own CA: the agent writes it to a file for the op (agentTargetFiles.ts).
      ...(creds.ca_pem ? { cacert_pem: creds.ca_pem } : {}),
    };
  }
  // SFTP: restic runs `ssh` with the account's key and the pinned host keys, which the agent
  // writes to a root-only folder for the op (agentTargetFiles.ts).
  if (!Array.isArray(creds.host_keys) || creds.host_keys.length === 0)
    throw new Error(
      'This SFTP storage has no pinned host key: save it again with what ssh-keyscan prints',
    );
  const key = await accountSshKey(app, target.user_id);
  return {
    repository,
    password,
    sftp: {
      ...(creds.port ? { port: creds.port } : {}),
      private_key: box.open(key.private_key),
      host_keys: creds.host_keys,
    },
  };
}

/**
 * The op's `target` for backing up `server` to `targetId` (null: the panel's storage), the
 * store made on first use. `target` is the loaded row of `targetId`.
 */
export async function targetFor(
  app: FastifyInstance,
  server: StoreServer,
  target: BackupTargetRow | null,
): Promise<{ store: BackupStoreRow; target: OpTarget }> {
  const store = await storeFor(app, server, target);
  return { store, target: await targetOfStore(app, store, target) };
}

/** The target row of a policy's `target_id` (null: the panel's storage). */
export async function targetRow(
  app: FastifyInstance,
  targetId: number | null,
): Promise<BackupTargetRow | null> {
  if (targetId === null) return null;
  return (
    (await app.db
      .selectFrom('backup_targets')
      .selectAll()
      .where('id', '=', targetId)
      .executeTakeFirst()) ?? null
  );
}
