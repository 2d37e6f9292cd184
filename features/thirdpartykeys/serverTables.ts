import type { Generated } from 'kysely';
import type { Timestamp } from '../../server/db/columns';
import type { IntegrationId } from './integrations';

/** A user's credential for another service; the secret only ever sealed. */
export interface ThirdPartyKeysTable {
  id: Generated<number>;
  user_id: number;
  /** Only ever written from a validated body: one of the integrations the panel knows. */
  integration: IntegrationId;
  label: string;
  api_url: string | null;
  key_id: string | null;
  secret_sealed: string;
  /** The last four characters, shown masked. */
  secret_hint: string;
  checked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * The table of third-party keys: merged into `Database` (server/db/schema.ts). Its migration is
 * this feature's (serverMigration.ts).
 */
export interface ThirdPartyKeysTables {
  third_party_keys: ThirdPartyKeysTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends ThirdPartyKeysTables {}
}
