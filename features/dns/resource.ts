/**
 * The resources of DNS (issue 4): provider accounts (third-party keys of a DNS provider), and the
 * zones and records read from the provider and kept in step. Their schemas are in schemas.ts.
 */
import { z } from 'zod';
import { type ResourceDef, defineResource, listQuery, listResponse } from '../../resources/define';
import { integrationLabel, thirdPartyKeyInput, thirdPartyKeySchema } from '../thirdpartykeys/api';
import { dnsRecordBody, dnsRecordSchema, dnsZoneInput, dnsZoneSchema, zoneName } from './schemas';

const byLabel = z.object({ label: integrationLabel });

/** A DNS provider account, added through `POST {dnsprovider}/users/{uid}`. */
export const dnsAccountInput = thirdPartyKeyInput.omit({ integration: true, key_id: true });

/** The DNS provider accounts: the third-party keys of a DNS provider (spec 7 "DNS provider"). */
export const dnsAccounts = defineResource({
  name: 'dns-accounts',
  label: 'DNS provider accounts',
  parent: 'account',
  schema: thirdPartyKeySchema,
  paths: { list: 'listapidetails/users/{uid}' },
  ops: { list: { guard: 'self', sort: ['created_at', 'label'] } },
  actions: {
    addPowerdns: {
      method: 'POST',
      path: 'powerdns/users/{uid}',
      guard: 'self',
      status: 201,
      summary: 'Add a PowerDNS account (API address and key, checked with GET /api/v1/servers)',
      body: dnsAccountInput.required({ api_url: true }),
      response: thirdPartyKeySchema,
    },
    addCloudflare: {
      method: 'POST',
      path: 'cloudflare/users/{uid}',
      guard: 'self',
      status: 201,
      summary: 'Add a Cloudflare account (API token, checked with GET /user/tokens/verify)',
      body: dnsAccountInput.omit({ api_url: true }),
      response: thirdPartyKeySchema,
    },
  },
  ui: { listFields: ['integration', 'label', 'hint'], recordRepresentation: 'label' },
});

/** Zones of one provider account (`?label=`), read from the provider and kept in step. */
export const dnsZones = defineResource({
  name: 'dns-zones',
  label: 'DNS zones',
  // A zone of the user's accounts: the request hook loads `{zoneId}` through `{uid}`.
  parent: 'account',
  params: { zoneId: 'id' },
  schema: dnsZoneSchema,
  input: dnsZoneInput,
  paths: {
    list: 'listapidetails/zones/users/{uid}',
    one: 'listapidetails/deletezone/{zoneId}/users/{uid}',
  },
  idParam: 'zoneId',
  ops: {
    list: { guard: 'self', sort: ['name'], filters: byLabel },
    create: { guard: 'self', query: byLabel, summary: 'Create the zone at the provider' },
    delete: { guard: 'self', query: byLabel, summary: 'Delete the zone and its records' },
  },
  ui: { listFields: ['name', 'label'], recordRepresentation: 'name' },
});

const recordsQuery = listQuery.extend({ label: integrationLabel, domain: zoneName });
const recordsPage = listResponse(dnsRecordSchema);
const listRecords = (provider: string) => ({
  method: 'GET' as const,
  path: `${provider}/listdns_records/users/{uid}`,
  guard: 'self' as const,
  summary: `Records of a ${provider === 'powerdns' ? 'PowerDNS' : 'Cloudflare'} zone (\`domain\`)`,
  query: recordsQuery,
  response: recordsPage,
});

/** Records of a zone; ids are the panel's, mapped to each provider's records. */
export const dnsRecords = defineResource({
  name: 'dns-records',
  label: 'DNS records',
  // `{zoneId}` is the user's zone, loaded through `{uid}` by the request hook; `{recordId}` (the
  // panel's id for the provider's reference) is loaded within that zone.
  parent: 'account',
  params: { zoneId: 'id', recordId: 'id' },
  within: { zoneId: 'dns-zones' },
  missing: 'No such record',
  schema: dnsRecordSchema,
  paths: {},
  ops: {},
  actions: {
    listPowerdns: listRecords('powerdns'),
    listCloudflare: listRecords('cloudflare'),
    create: {
      method: 'POST',
      path: 'listapidetails/createdns/zones/{zoneId}/users/{uid}',
      guard: 'self',
      status: 201,
      query: byLabel,
      body: dnsRecordBody,
      response: dnsRecordSchema,
    },
    update: {
      method: 'PATCH',
      path: 'updateapidetails/zone/{zoneId}/update_dns/{recordId}/users/{uid}',
      guard: 'self',
      query: byLabel,
      body: dnsRecordBody,
      response: dnsRecordSchema,
    },
    delete: {
      method: 'DELETE',
      path: 'listapidetails/deletezone/{zoneId}/delete_dns/{recordId}/users/{uid}',
      guard: 'self',
      query: byLabel,
      response: z.object({ id: z.number().int() }),
    },
  },
  ui: { listFields: ['type', 'name', 'content', 'ttl'] },
});

/**
 * The resources of DNS (issue 4). The accounts are third-party keys of a DNS provider
 * (features/thirdpartykeys); zones and records are read from the provider and kept in step.
 */
export const resources = {
  'dns-accounts': dnsAccounts,
  'dns-zones': dnsZones,
  'dns-records': dnsRecords,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
