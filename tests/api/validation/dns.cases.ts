import { randomUUID } from 'node:crypto';
import { now } from '../../../server/db/database';
import type { TestApp } from '../helpers';
import type { Case } from '../validation.test';

const anything = /./;

type Made = { t: TestApp; serverId: number };

/** The validation test's user: the owner of its server. */
const userOf = async ({ t, serverId }: Made) =>
  (
    await t.app.db
      .selectFrom('servers')
      .select('user_id')
      .where('id', '=', serverId)
      .executeTakeFirstOrThrow()
  ).user_id;

/** A credential of the user's: the request hook loads `{integrationId}` through its owner. */
const credential = async (f: Made) =>
  (
    await f.t.app.services.thirdPartyKeys.create(await userOf(f), 'cloudflare', {
      label: `validation ${randomUUID().slice(0, 8)}`,
      api_url: null,
      key_id: null,
      secret: randomUUID(),
      checked: true,
    })
  ).id;

/**
 * A zone of the user's, as a list from the provider records it: the request hook loads
 * `{zoneId}` through its owner before the query and body are read.
 */
const zone = async (f: Made) => {
  const made = await f.t.app.db
    .insertInto('dns_zones')
    .values({
      key_id: await credential(f),
      provider_zone_id: randomUUID(),
      name: `validation-${randomUUID().slice(0, 8)}.test`,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { zoneId: made.id };
};

/** A record in a zone of the user's: the hook loads `{recordId}` within `{zoneId}`. */
const record = async (f: Made) => {
  const { zoneId } = await zone(f);
  const made = await f.t.app.db
    .insertInto('dns_records')
    .values({ zone_id: zoneId, provider_ref: randomUUID(), created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { zoneId, recordId: made.id };
};

/** Bad input on the third-party key and DNS routes: every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/thirdpartykeys/users/:uid',
    as: 'user',
    query: '?kind=mail',
    errors: { kind: anything },
  },
  {
    route: 'POST /api/v1/thirdpartykeys/users/:uid',
    as: 'user',
    body: {},
    errors: { integration: anything, label: 'Required', secret: 'Required' },
  },
  {
    route: 'PUT /api/v1/thirdpartykeys/:integrationId/users/:uid',
    as: 'user',
    params: async (f) => ({ integrationId: await credential(f) }),
    body: { secret: 'has spaces in it', label: '-x' },
    errors: {
      secret: 'The credential has no spaces or control characters',
      label: /^Letters, digits/,
    },
  },
  {
    route: 'GET /api/v1/listapidetails/users/:uid',
    as: 'user',
    query: '?perPage=0',
    errors: { perPage: anything },
  },
  {
    route: 'POST /api/v1/powerdns/users/:uid',
    as: 'user',
    body: { label: '', api_url: 'ftp://ns1.example.com', secret: 'short' },
    errors: {
      label: 'Give the account a label',
      api_url: 'An http:// or https:// address',
      secret: 'The credential is too short',
    },
  },
  {
    route: 'POST /api/v1/cloudflare/users/:uid',
    as: 'user',
    body: {},
    errors: { label: 'Required', secret: 'Required' },
  },
  {
    route: 'GET /api/v1/listapidetails/zones/users/:uid',
    as: 'user',
    errors: { label: 'Required' },
  },
  {
    route: 'POST /api/v1/listapidetails/zones/users/:uid',
    as: 'user',
    query: '?label=Main',
    body: { name: 'localhost' },
    errors: { name: 'A domain like example.com' },
  },
  {
    route: 'DELETE /api/v1/listapidetails/deletezone/:zoneId/users/:uid',
    as: 'user',
    params: zone,
    errors: { label: 'Required' },
  },
  {
    route: 'GET /api/v1/powerdns/listdns_records/users/:uid',
    as: 'user',
    errors: { label: 'Required', domain: 'Required' },
  },
  {
    route: 'GET /api/v1/cloudflare/listdns_records/users/:uid',
    as: 'user',
    query: '?label=Main&domain=not%20a%20domain',
    errors: { domain: 'A host name like mail.example.com' },
  },
  {
    route: 'POST /api/v1/listapidetails/createdns/zones/:zoneId/users/:uid',
    as: 'user',
    params: zone,
    query: '?label=Main',
    body: { type: 'A', name: 'www', content: '203.0.113' },
    errors: { content: 'An IPv4 address like 203.0.113.10' },
  },
  {
    route: 'PATCH /api/v1/updateapidetails/zone/:zoneId/update_dns/:recordId/users/:uid',
    as: 'user',
    params: record,
    query: '?label=Main',
    body: { type: 'SRV', name: '_sip._tcp', content: 'sip.example.com' },
    errors: { port: anything },
  },
  {
    route: 'DELETE /api/v1/listapidetails/deletezone/:zoneId/delete_dns/:recordId/users/:uid',
    as: 'user',
    params: record,
    errors: { label: 'Required' },
  },
];
