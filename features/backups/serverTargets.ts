/**
 * The account's storage targets (S3, SFTP): GET and PATCH backup-storage. Credentials are sealed
 * and never answered (a hint only: the access key's last four, the host key's fingerprint); the
 * account's SSH public key for SFTP storage is answered (made on first need), never its private key. A
 * target a policy uses is not removed; one holding repositories keeps its place (endpoint,
 * bucket, host, path), as the files there would be lost to the panel.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { HttpError, fieldError } from '../../server/http/errors';
import type { ActionHandlers } from '../../server/http/handlers';
import type { backupTargets } from './resource';
import { type backupStorageSchema, type backupTargetInput, hostKeysOf } from './schemas';
import { creditOf, usageOf } from './serverCredit';
import { findTarget } from './serverLoaders';
import { accountSshKey } from './serverSshKeys';
import type { TargetCredentials } from './serverStores';

type Storage = z.infer<typeof backupStorageSchema>;
type TargetInput = z.output<typeof backupTargetInput>;

const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

/** `sha256:` of an OpenSSH key line's key (`[host] type base64`), or null when it is not one. */
export function hostKeyFingerprint(line: string): string | null {
  const parts = line.trim().split(/\s+/);
  const at = parts.findIndex((p) => /^(ssh-|ecdsa-|sk-)/.test(p));
  const key = at >= 0 ? parts[at + 1] : undefined;
  if (!key || !/^[A-Za-z0-9+/]+=*$/.test(key)) return null;
  const digest = createHash('sha256').update(Buffer.from(key, 'base64')).digest('base64');
  return `${parts[at]} SHA256:${digest.replace(/=+$/, '')}`;
}

/** Where the target is, its hint, and its sealed credentials. */
function describe(input: TargetInput): {
  location: string;
  hint: string;
  credentials: TargetCredentials;
} {
  if (input.kind === 's3') {
    return {
      location: `s3:https://${input.endpoint}/${input.bucket}`,
      hint: `Access key ending ${input.access_key_id.slice(-4)}`,
      credentials: {
        kind: 's3',
        endpoint: input.endpoint,
        bucket: input.bucket,
        region: input.region || undefined,
        access_key_id: input.access_key_id,
        secret_access_key: input.secret_access_key,
        ca_pem: input.ca_pem || undefined,
      },
    };
  }
  const keys = hostKeysOf(input.known_host).slice(0, 10);
  const fingerprint = hostKeyFingerprint(keys[0] ?? '');
  if (!fingerprint) throw fieldError('known_host', 'Paste what `ssh-keyscan -p PORT host` prints');
  const [host = '', portText] = input.host.split(':');
  if (!/^[A-Za-z0-9]/.test(host)) throw fieldError('host', 'A host name or address');
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !(port >= 1 && port <= 65535))
    throw fieldError('host', 'A port is 1 to 65535');
  return {
    // restic's sftp backend: always `sftp:user@host:/path`; the port is ssh's own `-p`.
    location: `sftp:${input.user}@${host}:${input.path}`,
    hint: `Host key ${fingerprint}${keys.length > 1 ? ` (and ${keys.length - 1} more)` : ''}`,
    credentials: {
      kind: 'sftp',
      host,
      ...(port !== undefined && port !== 22 ? { port } : {}),
      user: input.user,
      path: input.path,
      host_keys: keys,
    },
  };
}

/** What an account's kept files (not removed) added on each target. */
async function usedByTarget(app: FastifyInstance, uid: number): Promise<Map<number, number>> {
  const rows = await app.db
    .selectFrom('backup_runs')
    .innerJoin('backup_policies', 'backup_policies.id', 'backup_runs.backup_id')
    .select((eb) => [
      'backup_policies.target_id',
      eb.fn.sum<number | string | null>('backup_runs.added_bytes').as('bytes'),
    ])
    .where('backup_policies.user_id', '=', uid)
    .where('backup_policies.target_id', 'is not', null)
    .where('backup_runs.removed', '=', 0)
    .groupBy('backup_policies.target_id')
    .execute();
  return new Map(rows.map((r) => [r.target_id!, Number(r.bytes ?? 0)]));
}

export async function storageView(app: FastifyInstance, uid: number): Promise<Storage> {
  const [targets, used, credit, usage] = await Promise.all([
    app.db
      .selectFrom('backup_targets')
      .selectAll()
      .where('user_id', '=', uid)
      .orderBy('id')
      .execute(),
    usedByTarget(app, uid),
    creditOf(app, uid),
    usageOf(app, uid),
  ]);
  return {
    used_bytes: usage.used_bytes,
    credit_bytes: credit,
    targets: targets.map((t) => ({
      id: t.id,
      kind: t.kind,
      name: t.name,
      location: t.location,
      hint: t.hint,
      used_bytes: used.get(t.id) ?? 0,
      created_at: t.created_at,
    })),
    // The account's key for SFTP storage (made on first need): the user authorizes it there.
    sftp_public_key: (await accountSshKey(app, uid)).public_key,
  };
}

async function policiesUsing(app: FastifyInstance, targetId: number): Promise<number> {
  const row = await app.db
    .selectFrom('backup_policies')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('target_id', '=', targetId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function holdsRepositories(app: FastifyInstance, targetId: number): Promise<boolean> {
  return Boolean(
    await app.db
      .selectFrom('backup_stores')
      .select('id')
      .where('target_id', '=', targetId)
      .executeTakeFirst(),
  );
}

export const targetActions: ActionHandlers<typeof backupTargets> = {
  async storage(ctx) {
    return storageView(ctx.app, ctx.uid);
  },

  async setStorage(ctx) {
    const { app, uid } = ctx;
    const body = ctx.body;
    if ('remove' in body) {
      const target = await findTarget(app.db, uid, body.id);
      if (!target) throw fieldError('id', 'No such storage');
      const using = await policiesUsing(app, target.id);
      if (using)
        throw new HttpError(
          409,
          `${using === 1 ? 'A backup uses' : `${using} backups use`} this storage: move ${using === 1 ? 'it' : 'them'} to another storage or delete ${using === 1 ? 'it' : 'them'} first`,
        );
      // Its repositories' rows go with it (the files at the storage stay the user's).
      await app.db.deleteFrom('backup_targets').where('id', '=', target.id).execute();
      return storageView(app, uid);
    }
    const { location, hint, credentials } = describe(body);
    const sealed = app.services.box.seal(JSON.stringify(credentials));
    if (body.id === undefined) {
      await app.db
        .insertInto('backup_targets')
        .values({
          user_id: uid,
          kind: body.kind,
          name: body.name,
          location,
          hint,
          credentials: sealed,
          created_at: stamp(app),
        })
        .execute();
      return storageView(app, uid);
    }
    const target = await findTarget(app.db, uid, body.id);
    if (!target) throw fieldError('id', 'No such storage');
    if (target.kind !== body.kind)
      throw fieldError('kind', 'A storage keeps its kind: add another one instead');
    if (target.location !== location && (await holdsRepositories(app, target.id)))
      throw new HttpError(
        409,
        'This storage holds backups: its place cannot change. Add another storage instead',
      );
    await app.db
      .updateTable('backup_targets')
      .set({ name: body.name, location, hint, credentials: sealed })
      .where('id', '=', target.id)
      .execute();
    return storageView(app, uid);
  },
};
