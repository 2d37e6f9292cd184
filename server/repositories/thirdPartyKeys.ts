import type { Selectable } from 'kysely';
import type { ListQuery } from '../../resources/define';
import {
  INTEGRATIONS,
  type IntegrationId,
  type IntegrationKind,
  type ThirdPartyKey,
} from '../../resources/integrations';
import type { SecretBox } from '../auth/secretBox';
import type { ThirdPartyKeysTable } from '../../features/dns/serverTables';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { pageOf } from './paging';

export type ThirdPartyKeyRow = Selectable<ThirdPartyKeysTable>;

/** The masked view: the secret never leaves this module except through `secretOf`. */
export function toKeyRecord(row: ThirdPartyKeyRow): ThirdPartyKey {
  const integration = row.integration as IntegrationId;
  return {
    id: row.id,
    integration,
    kind: INTEGRATIONS[integration].kind,
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
      const ids = Object.entries(INTEGRATIONS)
        .filter(([, info]) => info.kind === query.kind)
        .map(([id]) => id);
      select = select.where('integration', 'in', ids);
    }
    return pageOf(select, query, ['created_at', 'label']);
  }

  find(userId: number, id: number) {
    return this.db
      .selectFrom('third_party_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
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
