import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db/database';
import { HttpError, notFound } from '../../server/http/errors';
import {
  type ApiCredential,
  type ApiCredentialInput,
  PAYPAL_API_BASES,
  PROVIDER_FIELDS,
  type Provider,
  last4,
} from './api';
import type { ApiCredentialRow } from './serverTables';

/** A credential's fields split into what is shown and what is sealed, with the key's last 4. */
export function splitFields(input: ApiCredentialInput): {
  publicFields: Record<string, string>;
  secretFields: Record<string, string>;
  keyLast4: string;
} {
  const values = input as unknown as Record<string, string | undefined>;
  const publicFields: Record<string, string> = {};
  const secretFields: Record<string, string> = {};
  let keyLast4 = '';
  for (const field of PROVIDER_FIELDS[input.provider]) {
    let value = values[field.name];
    if (value === undefined || value === '') continue;
    if (field.name === 'apiBase') value = value.replace(/\/+$/, '');
    if (field.secret) {
      secretFields[field.name] = value;
      if (!keyLast4) keyLast4 = last4(value);
    } else publicFields[field.name] = value;
  }
  return { publicFields, secretFields, keyLast4 };
}

export function credentialRecord(row: ApiCredentialRow): ApiCredential {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    public_fields: JSON.parse(row.public_fields) as Record<string, string>,
    key_last4: row.key_last4,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function mustFindCredential(db: Db, id: number): Promise<ApiCredentialRow> {
  const row = Number.isSafeInteger(id)
    ? await db.selectFrom('api_credentials').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('No such API credential');
  return row;
}

export const providerTaken = (provider: Provider) => {
  const message = `There is a ${provider} credential already: replace it instead`;
  return new HttpError(409, message, { provider: message });
};

/**
 * The opened fields of `provider`'s credential (PayPal's `live`/`sandbox` as their addresses),
 * or null when none is stored.
 */
export async function openCredential(
  app: FastifyInstance,
  provider: Provider,
): Promise<Record<string, string> | null> {
  const row = await app.db
    .selectFrom('api_credentials')
    .selectAll()
    .where('provider', '=', provider)
    .executeTakeFirst();
  if (!row) return null;
  const fields: Record<string, string> = {
    ...(JSON.parse(row.public_fields) as Record<string, string>),
    ...(JSON.parse(app.services.box.open(row.secret_sealed)) as Record<string, string>),
  };
  if (provider === 'paypal' && fields.apiBase && fields.apiBase in PAYPAL_API_BASES)
    fields.apiBase = PAYPAL_API_BASES[fields.apiBase as keyof typeof PAYPAL_API_BASES];
  return fields;
}
