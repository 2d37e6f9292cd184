import type { Selectable } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { SecretBox } from '../../server/auth/secretBox';
import { type Db, now } from '../../server/db/database';
import { pageOf } from '../../server/repositories/paging';
import {
  INTEGRATIONS,
  INTEGRATION_IDS,
  type IntegrationId,
  type IntegrationKind,
  type ThirdPartyKey,
} from './integrations';
import type { ThirdPartyKeysTable } from './serverTables';

export type ThirdPartyKeyRow = Selectable<ThirdPartyKeysTable>;

/** The masked view: the secret never leaves this module except through `secretOf`. */
export function toKeyRecord(row: ThirdPartyKeyRow): ThirdPartyKey {
  return {
    id: row.id,
    integration: row.integration,
    kind: INTEGRATIONS[row.integration].kind,
    label: row.label,
    api_url: row.api_url,
    key_id: row.key_id,
    hint: `••••${row.secret_hint}`,
    checked_at: row.checked_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const hintOf = (secret: string) => secret.slice(-4);

/**
 * The user's key `id`, or undefined for another user's or a missing one: the one lookup of a key
 * by its id, always through its owner. The request hook calls it for `{integrationId}` (the
 * feature's `accountChildren`), so handlers get the key as `ctx.child`.
 */
export function findOwnedKey(
  db: Db,
  uid: number,
  id: number | string,
): Promise<ThirdPartyKeyRow | undefined> {
  return db
    .selectFrom('third_party_keys')
    .selectAll()
    .where('user_id', '=', uid)
    .where('id', '=', Number(id))
    .executeTakeFirst();
}

export interface KeyFields {
  label: string;
  api_url: string | null;
  key_id: string | null;
  secret: string;
  checked: boolean;
}

/** Third-party credentials, sealed with the install's key. */
export class ThirdPartyKeyRepository {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  list(userId: number, query: ListQuery & { kind?: IntegrationKind }) {
    let select = this.db.selectFrom('third_party_keys').selectAll().where('user_id', '=', userId);
    if (query.kind) {
      const ids = INTEGRATION_IDS.filter((id) => INTEGRATIONS[id].kind === query.kind);
      select = select.where('integration', 'in', ids);
    }
    return pageOf(select, query, ['created_at', 'label']);
  }

  findByLabel(userId: number, label: string) {
    return this.db
      .selectFrom('third_party_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('label', '=', label)
      .executeTakeFirst();
  }

  async create(userId: number, integration: IntegrationId, fields: KeyFields) {
    const stamp = now();
    return this.db
      .insertInto('third_party_keys')
      .values({
        user_id: userId,
        integration,
        label: fields.label,
        api_url: fields.api_url,
        key_id: fields.key_id,
        secret_sealed: this.box.seal(fields.secret),
        secret_hint: hintOf(fields.secret),
        checked_at: fields.checked ? stamp : null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async replace(id: number, fields: KeyFields) {
    const stamp = now();
    return this.db
      .updateTable('third_party_keys')
      .set({
        label: fields.label,
        api_url: fields.api_url,
        key_id: fields.key_id,
        secret_sealed: this.box.seal(fields.secret),
        secret_hint: hintOf(fields.secret),
        checked_at: fields.checked ? stamp : null,
        updated_at: stamp,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(id: number) {
    await this.db.deleteFrom('third_party_keys').where('id', '=', id).execute();
  }

  /** The plain credential, for a call to the provider only. */
  secretOf(row: ThirdPartyKeyRow): string {
    return this.box.open(row.secret_sealed);
  }
}
