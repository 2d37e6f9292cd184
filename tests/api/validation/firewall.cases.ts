import type { Case } from '../validation.test';

const S = 'servers/:sid/users/:uid';
const NOT_AN_ADDRESS = 'An IPv4 or IPv6 address, or a block in CIDR form (192.0.2.0/24)';
const EVERY_ADDRESS = 'A rule for every address (/0) is not allowed: name addresses';
const PORT_LIST = 'Ports 1-65535, comma-separated; a range as 30000-30100';

/** The allow, deny and ignore lists: addresses that are not one, /0 blocks, paging. */
const lists = (['csf_allow', 'csf_deny', 'csf_ignore'] as const).flatMap((list): Case[] => [
  {
    route: `POST /api/v1/csf/${list}/${S}`,
    as: 'user',
    body: { ip: '0.0.0.0/0', comment: 'a\nb' },
    errors: { ip: EVERY_ADDRESS, comment: 'One line of text' },
  },
  {
    route: `POST /api/v1/csf/${list}/${S}`,
    as: 'user',
    body: { ip: 'not-an-ip', comment: 'c'.repeat(121) },
    errors: { ip: NOT_AN_ADDRESS, comment: /./ },
  },
  {
    route: `GET /api/v1/csf/${list}/${S}`,
    as: 'user',
    query: '?ip=not-an-ip&page=0&perPage=501',
    errors: { ip: NOT_AN_ADDRESS, page: /./, perPage: /./ },
  },
  {
    route: `DELETE /api/v1/csf/${list}/${S}`,
    as: 'user',
    query: '?ip=0.0.0.0%2F0',
    errors: { ip: EVERY_ADDRESS },
  },
  { route: `DELETE /api/v1/csf/${list}/${S}`, as: 'user', errors: { ip: /./ } },
]);

/** Temporary rules: one address (no block), a ttl within 30 days, one TCP port. */
const temp = (['allow', 'deny'] as const).flatMap((kind): Case[] => [
  {
    route: `POST /api/v1/trules/${kind}/${S}`,
    as: 'user',
    body: { ip: '192.0.2.0/24', ttl: 0, port: 70000 },
    errors: { ip: 'One address, not a block', ttl: 'At least a second', port: /./ },
  },
  {
    route: `POST /api/v1/trules/${kind}/${S}`,
    as: 'user',
    body: { ip: 'not-an-ip', ttl: 30 * 86_400 + 1 },
    errors: { ip: NOT_AN_ADDRESS, ttl: 'At most 30 days (2592000 s)' },
  },
  {
    route: `POST /api/v1/trules/${kind}/${S}`,
    as: 'user',
    body: { ip: '0.0.0.0/0', ttl: 'soon' },
    errors: { ip: EVERY_ADDRESS, ttl: 'Seconds, 1 to 2592000 (30 days)' },
  },
]);

/** Port lists in and out: ports past 65535, ranges backwards, words. */
const ports = (['in', 'out'] as const).map((direction): Case => ({
  route: `PATCH /api/v1/ports/${direction}/${S}`,
  as: 'user',
  body: { tcp: '22,99999', udp: '100-50,dns' },
  errors: { tcp: PORT_LIST, udp: PORT_LIST },
}));

/** Bad input on the firewall: settings, service actions, countries, lists, rules, ports. */
export const cases: Case[] = [
  {
    route: `PATCH /api/v1/csf/${S}`,
    as: 'user',
    body: {
      enabled: 'yes',
      ddos_status: 1,
      syn_flood_rate: 0,
      syn_flood_burst: 1.5,
      conn_limit: -1,
      port_flood_hits: 100_001,
      port_flood_seconds: 86_401,
    },
    errors: {
      enabled: /./,
      ddos_status: /./,
      syn_flood_rate: /./,
      syn_flood_burst: /./,
      conn_limit: /./,
      port_flood_hits: /./,
      port_flood_seconds: /./,
    },
  },
  {
    route: `GET /api/v1/csf/service/${S}`,
    as: 'user',
    query: '?action=flush',
    errors: { action: /./ },
  },
  { route: `GET /api/v1/csf/service/${S}`, as: 'user', errors: { action: /./ } },
  {
    route: `PATCH /api/v1/csf/cc/${S}`,
    as: 'user',
    body: { countries: ['DE', '1X'] },
    errors: { 'countries.1': 'A country code: two letters, ISO 3166 alpha-2 (DE, US)' },
  },
  {
    route: `PATCH /api/v1/csf/cc/${S}`,
    as: 'user',
    body: { countries: 'DE' },
    errors: { countries: /./ },
  },
  ...ports,
  ...lists,
  ...temp,
  {
    route: 'POST /api/v1/admin/country-ranges',
    as: 'admin',
    body: { csv: '' },
    errors: { csv: 'Paste or upload the CSV' },
  },
  { route: 'POST /api/v1/admin/country-ranges', as: 'admin', body: {}, errors: { csv: /./ } },
];
