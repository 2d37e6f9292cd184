/**
 * Firewall (spec "Firewall", /security/{id}): CSF's API (csf, csf_allow/deny/ignore, temporary
 * rules, ports, the deny list) on nftables. The panel keeps the desired state; the agent renders
 * one table of the panel's own (`table inet stackdeck`) and replaces it in one transaction.
 * The attempt limits (max-attempts, ssh-max...) are fail2ban's and declared elsewhere.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import {
  ccKey,
  ccPart,
  ccRef,
  commentInput,
  ddosLimits,
  firewallChange,
  firewallState,
  hostInput,
  ipInput,
  portListInput,
  tempKind,
} from './state';
import { COUNTRY_CODE } from './countries';
import { listActions, tempActions } from './routesDecl';

const S = 'servers/{sid}/users/{uid}';

export const firewallSettings = z.object({
  enabled: z.boolean(),
  /** The DDoS limits below are enforced (SYN flood, connections per address, port flood). */
  ddos_status: z.boolean(),
  ...ddosLimits.shape,
  updated_at: z.string().nullable(),
});
export type FirewallSettings = z.infer<typeof firewallSettings>;
export const firewallSettingsInput = z
  .object({ enabled: z.boolean(), ddos_status: z.boolean(), ...ddosLimits.shape })
  .partial();

export const SERVICE_ACTIONS = ['status', 'start', 'stop', 'restart', 'reload'] as const;

/** What the server runs now, read back from nft. */
export const firewallStatus = z.object({
  /** `table inet stackdeck` is loaded. */
  running: z.boolean(),
  enabled: z.boolean(),
  counts: z.object({
    allow: z.number().int(),
    deny: z.number().int(),
    temp_allow: z.number().int(),
    temp_deny: z.number().int(),
  }),
  ssh_ports: z.array(z.number().int()),
});
export type FirewallStatus = z.infer<typeof firewallStatus>;

export const denyListItem = z.object({
  ip: z.string(),
  kind: z.enum(['deny', 'temp']),
  port: z.number().int().nullable(),
  /** Seconds until a temporary deny expires; null for a permanent one. */
  expires_in: z.number().int().nullable(),
});
export type DenyListItem = z.infer<typeof denyListItem>;

export const portsRecord = z.object({
  direction: z.enum(['in', 'out']),
  /** Comma-separated, ranges as from-to. Outbound lists left empty filter nothing. */
  tcp: z.string(),
  udp: z.string(),
});
export const portsInput = z.object({ tcp: portListInput, udp: portListInput }).partial();

export const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(COUNTRY_CODE, 'A country code: two letters, ISO 3166 alpha-2 (DE, US)');
export const ccRecord = z.object({
  /** Denied countries. */
  countries: z.array(z.string()),
  /** What the admin loaded: ranges per country. Empty: country blocking cannot work yet. */
  loaded: z.array(
    z.object({ country: z.string(), ranges: z.number().int(), loaded_at: z.string() }),
  ),
});

export const firewall = defineResource({
  name: 'csf',
  label: 'Firewall',
  parent: 'server',
  schema: firewallSettings,
  paths: {},
  ops: {},
  actions: {
    read: { method: 'GET', path: `csf/${S}`, guard: 'self', response: firewallSettings },
    change: {
      method: 'PATCH',
      path: `csf/${S}`,
      guard: 'self',
      summary: 'Enable or disable the firewall and the DDoS limits, then reload it',
      body: firewallSettingsInput,
      response: firewallSettings,
    },
    service: {
      method: 'GET',
      path: `csf/service/${S}`,
      guard: 'self',
      summary: '`?action=status|start|stop|restart|reload` of the server firewall',
      changesState: true,
      query: z.object({ action: z.enum(SERVICE_ACTIONS) }),
      response: firewallStatus,
    },
    denylist: {
      method: 'GET',
      path: `csf/csf-denylist/${S}`,
      guard: 'self',
      summary: 'The deny set as nft holds it now, with the time left of temporary denies',
      response: z.object({ data: z.array(denyListItem), total: z.number().int() }),
    },
    cc: { method: 'GET', path: `csf/cc/${S}`, guard: 'self', response: ccRecord },
    setCc: {
      method: 'PATCH',
      path: `csf/cc/${S}`,
      guard: 'self',
      summary: "Deny whole countries (ranges from the admin's loaded CSV)",
      body: z.object({ countries: z.array(countryCode).max(250) }),
      response: ccRecord,
    },
    portsIn: { method: 'GET', path: `ports/in/${S}`, guard: 'self', response: portsRecord },
    setPortsIn: {
      method: 'PATCH',
      path: `ports/in/${S}`,
      guard: 'self',
      summary: 'Inbound TCP/UDP ports open to all (comma-separated, ranges as from-to)',
      body: portsInput,
      response: portsRecord,
    },
    portsOut: { method: 'GET', path: `ports/out/${S}`, guard: 'self', response: portsRecord },
    setPortsOut: {
      method: 'PATCH',
      path: `ports/out/${S}`,
      guard: 'self',
      summary: 'Outbound ports new connections may go to; empty lists leave outbound open',
      body: portsInput,
      response: portsRecord,
    },
  },
});

export const firewallEntry = z.object({
  id: z.number().int(),
  ip: z.string(),
  comment: z.string(),
  created_at: z.string(),
});
export type FirewallEntry = z.infer<typeof firewallEntry>;
export const firewallEntryInput = z.object({ ip: ipInput, comment: commentInput });

/** The allow, deny and ignore lists (`csf/{list}/...`), each route written out per list. */
export const firewallLists = defineResource({
  name: 'csf-lists',
  label: 'Firewall lists',
  parent: 'server',
  params: { id: 'id' },
  schema: firewallEntry,
  input: firewallEntryInput,
  paths: {},
  ops: {},
  actions: listActions(firewallEntry, firewallEntryInput),
});

export const tempRule = z.object({
  id: z.number().int(),
  kind: tempKind,
  ip: z.string(),
  port: z.number().int().nullable(),
  comment: z.string(),
  ttl: z.number().int(),
  expires_at: z.string(),
  /** Seconds left when read. */
  time_left: z.number().int(),
});
export type TempRule = z.infer<typeof tempRule>;
export const tempRuleInput = z.object({
  ip: hostInput,
  ttl: z.coerce
    .number({ message: 'Seconds, 1 to 2592000 (30 days)' })
    .int()
    .min(1, 'At least a second')
    .max(30 * 86_400, 'At most 30 days (2592000 s)'),
  port: z.coerce.number().int().min(1).max(65535).nullable().optional(),
  comment: commentInput,
});

export const tempRules = defineResource({
  name: 'trules',
  label: 'Temporary firewall rules',
  parent: 'server',
  params: { id: 'id' },
  schema: tempRule,
  input: tempRuleInput,
  paths: {},
  ops: {},
  actions: tempActions(tempRule, tempRuleInput),
});

/** The admin's country ranges: loaded from a CSV (this machine downloads nothing). */
export const countryRanges = defineResource({
  name: 'country-ranges',
  scope: 'panel',
  label: 'Country IP ranges',
  schema: z.object({ country: z.string(), ranges: z.number().int(), loaded_at: z.string() }),
  paths: {},
  ops: {},
  actions: {
    loaded: {
      method: 'GET',
      path: 'admin/country-ranges',
      guard: 'admin',
      summary: 'Countries with loaded ranges: how many, and when',
      response: z.object({
        data: z.array(
          z.object({ country: z.string(), ranges: z.number().int(), loaded_at: z.string() }),
        ),
        total: z.number().int(),
      }),
    },
    load: {
      method: 'POST',
      path: 'admin/country-ranges',
      guard: 'admin',
      summary:
        'Load `start_ip,end_ip,country_code` CSV (DB-IP Lite / IPtoASN): replaces the ranges of every country it names',
      body: z.object({
        csv: z
          .string()
          .min(1, 'Paste or upload the CSV')
          .max(80 * 1024 * 1024),
      }),
      bodyLimit: 100 * 1024 * 1024,
      response: z.object({
        countries: z.number().int(),
        ranges: z.number().int(),
        skipped: z.number().int(),
      }),
    },
  },
});

export const resources = {
  csf: firewall,
  'csf-lists': firewallLists,
  trules: tempRules,
  'country-ranges': countryRanges,
};

const applied = z.object({
  /** `full`: the table replaced; `element`: one element added or removed; `off`: removed. */
  mode: z.enum(['full', 'element', 'off']),
  ms: z.number(),
});

export const ops = {
  /**
   * Makes the server's table match the state: one checked transaction, kept only when the panel
   * still answers a new connection within `confirm_ms` (else the previous table is restored);
   * with `change`, one element is added or removed at runtime instead and the file rewritten.
   * The country ranges are not in the message: `cc` names the list (sent before with ccPart).
   */
  'firewall.apply': op(
    z.object({
      state: firewallState,
      cc: ccRef.nullable(),
      confirm_ms: z.number().int().min(500).max(120_000),
      change: firewallChange.nullable(),
    }),
    applied,
    180_000,
  ),
  /** The agent holds the whole country range list of this key already (nothing to send). */
  'firewall.ccHave': op(z.object({ key: ccKey }), z.object({ have: z.boolean() })),
  /** One part of a country range list, kept on the agent until an apply uses it. */
  'firewall.ccPart': op(ccPart, z.object({ staged: z.number().int() })),
  /** The table as loaded now. */
  'firewall.status': op(z.object({}), firewallStatus),
  /** The deny sets' elements, with what is left of temporary ones. */
  'firewall.denylist': op(z.object({}), z.object({ data: z.array(denyListItem) })),
};
