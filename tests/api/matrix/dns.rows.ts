import { randomUUID } from 'node:crypto';
import { type Fixture, type Role, type Row, SELF } from './support';

/**
 * Authorization matrix rows of third-party keys and DNS: one per route, as
 * tests/api/matrix.test.ts checks. The matrix fills only `{uid}`, `{sid}` and `{id}`, so the
 * `{integrationId}`, `{zoneId}` and `{recordId}` of these paths name nothing: whoever passes the
 * guard gets the 404 of a missing id (the found cases are in tests/api/dns-*.test.ts). Calls
 * that would reach a provider are made so they stop before it, without network.
 */
const MISSING = { ...SELF, owner: 404, admin: 404, acting: 404 };
const CREATED = { ...SELF, owner: 201, admin: 201, acting: 201 };

/** A label the owner already uses: adding a DNS account under it is refused before any check. */
const takenLabel = async ({ t, owner }: Fixture) => {
  const label = 'matrix taken';
  if (!(await t.app.services.thirdPartyKeys.findByLabel(owner.id, label)))
    await t.app.services.thirdPartyKeys.create(owner.id, 'github', {
      label,
      api_url: null,
      key_id: null,
      secret: 'matrix-secret-0000',
      checked: false,
    });
  return label;
};

const nobody = () => '?label=nobody';

export const rows: Row[] = [
  { route: 'GET /api/v1/thirdpartykeys/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/thirdpartykeys/users/:uid',
    // GitHub tokens are stored without a check: no network.
    body: (_: Fixture, role: Role) => ({
      integration: 'github',
      label: `gh ${role} ${randomUUID().slice(0, 8)}`,
      secret: 'ghp_matrix_secret_1234',
    }),
    expect: CREATED,
  },
  {
    route: 'PUT /api/v1/thirdpartykeys/:integrationId/users/:uid',
    body: () => ({ secret: 'replaced-secret-1234' }),
    expect: MISSING,
  },
  { route: 'DELETE /api/v1/thirdpartykeys/:integrationId/users/:uid', expect: MISSING },
  { route: 'GET /api/v1/listapidetails/users/:uid', expect: SELF },
  {
    route: 'POST /api/v1/powerdns/users/:uid',
    body: async (f: Fixture) => ({
      label: await takenLabel(f),
      api_url: 'http://127.0.0.1:9',
      secret: 'pdns-matrix-key',
    }),
    expect: { ...SELF, owner: 409, admin: 409, acting: 409 },
  },
  {
    route: 'POST /api/v1/cloudflare/users/:uid',
    body: async (f: Fixture) => ({ label: await takenLabel(f), secret: 'cf-matrix-token' }),
    expect: { ...SELF, owner: 409, admin: 409, acting: 409 },
  },
  { route: 'GET /api/v1/listapidetails/zones/users/:uid', query: nobody, expect: MISSING },
  {
    route: 'POST /api/v1/listapidetails/zones/users/:uid',
    query: nobody,
    body: () => ({ name: 'matrix.test' }),
    expect: MISSING,
  },
  {
    route: 'DELETE /api/v1/listapidetails/deletezone/:zoneId/users/:uid',
    query: nobody,
    expect: MISSING,
  },
  {
    route: 'GET /api/v1/powerdns/listdns_records/users/:uid',
    query: () => '?label=nobody&domain=matrix.test',
    expect: MISSING,
  },
  {
    route: 'GET /api/v1/cloudflare/listdns_records/users/:uid',
    query: () => '?label=nobody&domain=matrix.test',
    expect: MISSING,
  },
  {
    route: 'POST /api/v1/listapidetails/createdns/zones/:zoneId/users/:uid',
    query: nobody,
    body: () => ({ type: 'A', name: 'www', content: '203.0.113.1' }),
    expect: MISSING,
  },
  {
    route: 'PATCH /api/v1/updateapidetails/zone/:zoneId/update_dns/:recordId/users/:uid',
    query: nobody,
    body: () => ({ type: 'A', name: 'www', content: '203.0.113.1' }),
    expect: MISSING,
  },
  {
    route: 'DELETE /api/v1/listapidetails/deletezone/:zoneId/delete_dns/:recordId/users/:uid',
    query: nobody,
    expect: MISSING,
  },
];
