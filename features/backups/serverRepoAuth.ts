/**
 * The repositories of the panel's backup storage and their credentials: a repository is named by
 * an opaque uuid (the Basic user too) and opened with a random secret shown once; the panel keeps
 * only the secret's sha256. A leaked table row opens nothing.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../server/auth/sessions';
import type { Db } from '../../server/db/database';
import type { RepoStore } from './serverRepoStore';
import type { BackupRepositoryRow } from './serverRepoTables';

const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** The credential a new repository is opened with: give it to the agent, then forget it. */
export interface RepositoryCredential {
  id: number;
  uuid: string;
  secret: string;
}

/** `Authorization: Basic ...` as user and password, or null when it is not one. */
export function basicCredentials(
  header: string | undefined,
): { user: string; pass: string } | null {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

export class BackupRepositories {
  constructor(
    private readonly db: Db,
    readonly store: RepoStore,
    private readonly clock: Clock,
  ) {}

  /** A new repository: its row, its directories, and its secret (returned this once). */
  async create(serverId: number | null): Promise<RepositoryCredential> {
    const uuid = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    await this.store.create(uuid);
    const row = await this.db
      .insertInto('backup_repositories')
      .values({
        server_id: serverId,
        uuid,
        secret_hash: digest(secret).toString('hex'),
        created_at: new Date(this.clock()).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, uuid, secret };
  }

  async find(uuid: string): Promise<BackupRepositoryRow | undefined> {
    return this.db
      .selectFrom('backup_repositories')
      .selectAll()
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  /** The repository the credential opens, or null: an unknown uuid and a wrong secret alike. */
  async verify(uuid: string, secret: string): Promise<BackupRepositoryRow | null> {
    const row = await this.find(uuid);
    const given = digest(secret);
    // Compared even without a row, so an unknown uuid takes as long as a wrong secret.
    const stored = row ? Buffer.from(row.secret_hash, 'hex') : Buffer.alloc(given.length);
    const same = stored.length === given.length && timingSafeEqual(stored, given);
    return row && same ? row : null;
  }

  /** A new secret for the repository (the old one stops working); the new one, this once. */
  async rotate(uuid: string): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    await this.db
      .updateTable('backup_repositories')
      .set({ secret_hash: digest(secret).toString('hex') })
      .where('uuid', '=', uuid)
      .execute();
    return secret;
  }

  /** Measures the repository's files and records the figure (bytes_used); returns it. */
  async meter(uuid: string): Promise<number> {
    const bytes = await this.store.bytesUsed(uuid);
    await this.db
      .updateTable('backup_repositories')
      .set({ bytes_used: bytes, metered_at: new Date(this.clock()).toISOString() })
      .where('uuid', '=', uuid)
      .execute();
    return bytes;
  }

  /** The directory the panel runs `restic -r` on itself (forget, prune, check). */
  localPath(uuid: string): string {
    return this.store.dirOf(uuid);
  }

  /** Removes the repository's files and row. */
  async remove(uuid: string): Promise<void> {
    await this.store.destroy(uuid);
    await this.db.deleteFrom('backup_repositories').where('uuid', '=', uuid).execute();
  }
}
