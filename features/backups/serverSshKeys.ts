/**
 * The account's SSH key pair for SFTP storage (migration 0053_backup_ssh_keys): one per account,
 * held by the panel (the private key sealed) and handed to the agent with each op on an SFTP
 * target; the user authorizes its public key on their storage. ed25519, made with node:crypto
 * and written in OpenSSH's own format (`openssh-key-v1`, unencrypted: the seal protects it at
 * rest, the agent's file is root-only and removed after the op).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

export interface BackupSshKeysTable {
  user_id: number;
  /** The OpenSSH private key, sealed: never answered, only handed to the agent. */
  private_key: string;
  /** `ssh-ed25519 <base64> stackdeck-backups`: shown to the user. */
  public_key: string;
  created_at: Timestamp;
}

interface SshKeyTables {
  backup_ssh_keys: BackupSshKeysTable;
}

declare module '../../server/db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends SshKeyTables {}
}

export type SshKeyRow = Selectable<BackupSshKeysTable>;

export const sshKeysMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('backup_ssh_keys')
      .addColumn('user_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('public_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('backup_ssh_keys').execute();
  },
};

export const SSH_KEY_COMMENT = 'stackdeck-backups';

/** SSH's wire encoding: a uint32 length, then the bytes. */
function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/**
 * An ed25519 key in OpenSSH's formats: the private key file (`openssh-key-v1`, cipher and kdf
 * `none`, one key; the private section is two equal check ints, the key type, the public key,
 * seed||public, the comment and padding 1, 2, 3... to the 8-byte block) and the public key line.
 */
export function openSshEd25519(
  seed: Buffer,
  pub: Buffer,
  comment = SSH_KEY_COMMENT,
): { privateKey: string; publicKey: string } {
  if (seed.length !== 32 || pub.length !== 32) throw new Error('an ed25519 key is 32 bytes');
  const type = 'ssh-ed25519';
  const blob = Buffer.concat([sshString(type), sshString(pub)]);
  const check = randomBytes(4).readUInt32BE();
  let section = Buffer.concat([
    uint32(check),
    uint32(check),
    sshString(type),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  const pad = (8 - (section.length % 8)) % 8;
  section = Buffer.concat([section, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(blob),
    sshString(section),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g)!;
  return {
    privateKey: [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      ...lines,
      '-----END OPENSSH PRIVATE KEY-----',
      '',
    ].join('\n'),
    publicKey: `${type} ${blob.toString('base64')} ${comment}`,
  };
}

/** A new ed25519 key pair in OpenSSH's formats. */
export function newSshKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return openSshEd25519(Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url'));
}

/**
 * The account's key pair, made on first need. Two requests at once: both insert, the one that
 * comes second is ignored (the primary key), and both answer the row that is there.
 */
export async function accountSshKey(app: FastifyInstance, uid: number): Promise<SshKeyRow> {
  const found = await app.db
    .selectFrom('backup_ssh_keys')
    .selectAll()
    .where('user_id', '=', uid)
    .executeTakeFirst();
  if (found) return found;
  const pair = newSshKeyPair();
  await app.db
    .insertInto('backup_ssh_keys')
    .values({
      user_id: uid,
      private_key: app.services.box.seal(pair.privateKey),
      public_key: pair.publicKey,
      created_at: new Date(app.services.clock()).toISOString(),
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return app.db
    .selectFrom('backup_ssh_keys')
    .selectAll()
    .where('user_id', '=', uid)
    .executeTakeFirstOrThrow();
}
