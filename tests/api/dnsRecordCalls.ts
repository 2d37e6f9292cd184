import type { TestApp, TestUser } from './helpers';

/**
 * The record calls of one zone as a user makes them (spec s.7 DNS): `create` a record, `change`
 * one by its id. `q` names the user's third-party key (`?label=`).
 */
export function dnsRecordCalls(t: TestApp, owner: TestUser, zoneId: number, q: string) {
  return {
    create: (body: unknown) =>
      t.call('POST', `/api/v1/listapidetails/createdns/zones/${zoneId}/users/${owner.id}${q}`, {
        token: owner.token,
        body,
      }),
    change: (recordId: number | string, body: unknown) =>
      t.call(
        'PATCH',
        `/api/v1/updateapidetails/zone/${zoneId}/update_dns/${recordId}/users/${owner.id}${q}`,
        { token: owner.token, body },
      ),
  };
}
