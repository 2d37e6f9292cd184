import { randomUUID } from 'node:crypto';
import { now } from '../../../server/db/database';
import type { TestApp, TestUser } from '../helpers';
import { type Fixture, type Role, type Row, SELF } from './support';

/**
 * Authorization matrix rows of third-party keys and DNS: one per route, as
 * tests/api/matrix.test.ts checks. Every call reaches what it names, without leaving the
 * machine: the fixture's owner has a Cloudflare account on the local fake of Cloudflare's API v4
 * (tests/fakes/cloudflare.ts) and a PowerDNS account on a real pdns_server on loopback
 * (tests/dns/pdns.ts, as tests/api/dns-powerdns.test.ts needs too; the matrix's config allows
 * 127.0.0.1 as an outbound address), each with one zone (`Fixture.dns`). So whoever passes the
 * `{uid}` guard (the owner, an admin, an admin acting as the owner) gets the success status and
 * the others the guard's refusal (SELF): no row stops at a missing id.
 *
 * Both providers' accounts are added and both record listings read their zone; zones and
 * records are made, changed and removed in the Cloudflare account (the same service code serves
 * PowerDNS). `{integrationId}`, `{zoneId}` and `{recordId}` (`Row.params`) name a credential,
 * zone or record of the owner's, made through the API: a fresh one per role where the call
 * changes or removes it. New accounts and items get a fresh label or name per role;
 * credentials are S3 key pairs, checked against the local fake of S3 (`Fixture.s3`). What each provider does with a record (every type, paging,
 * its refusals) is in tests/api/dns-*.test.ts.
 */
const CREATED = { ...SELF, owner: 201, admin: 201, acting: 201 };

const suffix = () => randomUUID().slice(0, 8);

/** `?label=` of the owner's account at the provider. */
const at =
  (provider: 'cloudflare' | 'powerdns', extra = '') =>
  (f: Fixture) =>
    `?label=${encodeURIComponent(f.dns[provider].label)}${extra}`;

/** The records of the owner's zone at the provider: `?label=...&domain=...`. */
const recordsOf = (provider: 'cloudflare' | 'powerdns') => (f: Fixture) =>
  at(provider, `&domain=${f.dns[provider].zone}`)(f);

/** Calls the API as the owner and gives the new item's id (made through the API, as a client). */
async function made(f: Fixture, path: string, body: unknown): Promise<number> {
  const res = await f.t.call('POST', `/api/v1/${path}`, { token: f.owner.token, body });
  if (res.statusCode !== 201) throw new Error(`POST ${path}: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: number }).id;
}

/** An S3 key pair the fixture's S3 endpoint accepts, labelled `label`. */
const s3Credential = (f: Fixture, label: string) => ({
  integration: 's3',
  label,
  api_url: f.s3.url,
  key_id: f.s3.keyId,
  secret: f.s3.secret,
});

/** A new credential of the owner's. */
const freshCredential = async (f: Fixture, role: Role) => ({
  integrationId: await made(
    f,
    `thirdpartykeys/users/${f.owner.id}`,
    s3Credential(f, `s3 target ${role} ${suffix()}`),
  ),
});

/** A new zone of the owner's Cloudflare account. */
const freshZone = async (f: Fixture, role: Role) => ({
  zoneId: await made(f, `listapidetails/zones/users/${f.owner.id}${at('cloudflare')(f)}`, {
    name: `${role}-${suffix()}.matrix.test`,
  }),
});

/** A new A record in the owner's Cloudflare zone. */
const freshRecord = async (f: Fixture, role: Role) => {
  const { zoneId } = f.dns.cloudflare;
  const path = `listapidetails/createdns/zones/${zoneId}/users/${f.owner.id}`;
  return {
    zoneId,
    recordId: await made(f, `${path}${at('cloudflare')(f)}`, {
      type: 'A',
      name: `${role}-${suffix()}`,
      content: '203.0.113.1',
    }),
  };
};

export const rows: Row[] = [
  { route: 'GET /api/v1/thirdpartykeys/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/thirdpartykeys/users/:uid',
    body: (f: Fixture, role: Role) => s3Credential(f, `s3 ${role} ${suffix()}`),
    expect: CREATED,
  },
  {
    route: 'PUT /api/v1/thirdpartykeys/:integrationId/users/:uid',
    params: freshCredential,
    // The same key pair again: the endpoint checks it like a new one.
    body: (f: Fixture) => ({ secret: f.s3.secret }),
    expect: SELF,
  },
  {
    route: 'DELETE /api/v1/thirdpartykeys/:integrationId/users/:uid',
    params: freshCredential,
    expect: SELF,
  },
  { route: 'GET /api/v1/listapidetails/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/powerdns/users/:uid',
    // Checked with GET /api/v1/servers of the pdns_server.
    body: ({ dns }: Fixture, role: Role) => ({
      label: `pdns ${role} ${suffix()}`,
      api_url: dns.powerdns.api_url,
      secret: dns.powerdns.secret,
    }),
    expect: CREATED,
  },
  {
    route: 'POST /api/v1/cloudflare/users/:uid',
    // Checked with GET /user/tokens/verify of the fake.
    body: ({ dns }: Fixture, role: Role) => ({
      label: `cf ${role} ${suffix()}`,
      secret: dns.cloudflare.secret,
    }),
    expect: CREATED,
  },
  { route: 'GET /api/v1/listapidetails/zones/users/:uid', query: at('cloudflare'), expect: SELF },
  {
    route: 'POST /api/v1/listapidetails/zones/users/:uid',
    query: at('cloudflare'),
    body: (_: Fixture, role: Role) => ({ name: `${role}-${suffix()}.matrix.test` }),
    expect: CREATED,
  },
  {
    route: 'DELETE /api/v1/listapidetails/deletezone/:zoneId/users/:uid',
    query: at('cloudflare'),
    params: freshZone,
    expect: SELF,
  },
  {
    route: 'GET /api/v1/powerdns/listdns_records/users/:uid',
    query: recordsOf('powerdns'),
    expect: SELF,
  },
  {
    route: 'GET /api/v1/cloudflare/listdns_records/users/:uid',
    query: recordsOf('cloudflare'),
    expect: SELF,
  },
  {
    route: 'POST /api/v1/listapidetails/createdns/zones/:zoneId/users/:uid',
    query: at('cloudflare'),
    params: async ({ dns }: Fixture) => ({ zoneId: dns.cloudflare.zoneId }),
    body: (_: Fixture, role: Role) => ({
      type: 'A',
      name: `new-${role}-${suffix()}`,
      content: '203.0.113.2',
    }),
    expect: CREATED,
  },
  {
    route: 'PATCH /api/v1/updateapidetails/zone/:zoneId/update_dns/:recordId/users/:uid',
    query: at('cloudflare'),
    params: freshRecord,
    body: (_: Fixture, role: Role) => ({
      type: 'A',
      name: `changed-${role}-${suffix()}`,
      content: '198.51.100.1',
    }),
    expect: SELF,
  },
  {
    route: 'DELETE /api/v1/listapidetails/deletezone/:zoneId/delete_dns/:recordId/users/:uid',
    query: at('cloudflare'),
    params: freshRecord,
    expect: SELF,
  },
];

/** A credential of `user`'s, stored through the repository (the stranger has no S3 endpoint). */
const keyOf = (t: TestApp, user: TestUser, integration: 's3' | 'cloudflare') =>
  t.app.services.thirdPartyKeys.create(user.id, integration, {
    label: `stranger ${integration} ${suffix()}`,
    api_url: null,
    key_id: null,
    secret: randomUUID(),
    checked: true,
  });

/**
 * A zone of `user`'s Cloudflare account, as a list from the provider records it: no call
 * reaches the provider, the derived rows stop at the request hook. One per user: a stranger's
 * record is made in it, so the zone the derived rows name holds the record they name.
 */
const zones = new Map<number, Promise<number>>();
function zoneOf(t: TestApp, user: TestUser): Promise<number> {
  if (!zones.has(user.id)) zones.set(user.id, newZone(t, user));
  return zones.get(user.id)!;
}

async function newZone(t: TestApp, user: TestUser): Promise<number> {
  const account = await keyOf(t, user, 'cloudflare');
  const zone = await t.app.db
    .insertInto('dns_zones')
    .values({
      key_id: account.id,
      provider_zone_id: randomUUID().replaceAll('-', ''),
      name: `stranger-${suffix()}.matrix.test`,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return zone.id;
}

/** A record of `user`'s zone, as a list from the provider records it. */
async function recordOf(t: TestApp, user: TestUser): Promise<number> {
  const record = await t.app.db
    .insertInto('dns_records')
    .values({
      zone_id: await zoneOf(t, user),
      provider_ref: randomUUID().replaceAll('-', ''),
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return record.id;
}

/**
 * A row of each account resource of `user`'s (the stranger's, for the derived rows "the owner
 * names another account's row"): a credential, a zone, and a record in that zone.
 */
export const owned = {
  thirdpartykeys: async (t: TestApp, user: TestUser) => (await keyOf(t, user, 's3')).id,
  'dns-zones': zoneOf,
  'dns-records': recordOf,
};
