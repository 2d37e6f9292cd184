import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

/** One run-time setting (api.ts `panelSettingsSchema`'s field): its JSON value. */
export interface PanelSettingsTable {
  key: string;
  value: string;
  /** The admin who changed it last, as the audit shows them (kept after the account is gone). */
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface ApiCredentialsTable {
  id: Generated<number>;
  provider: 'stripe' | 'paypal' | 'vultr';
  name: string;
  /** JSON of the fields that are not secret (publishable key, client id, API address). */
  public_fields: string;
  /** SecretBox-sealed JSON of the secret fields. */
  secret_sealed: string;
  key_last4: string;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    panel_settings: PanelSettingsTable;
    api_credentials: ApiCredentialsTable;
  }
}

export type ApiCredentialRow = Selectable<ApiCredentialsTable>;
