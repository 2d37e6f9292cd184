import { z } from 'zod';
import { reportSchema } from './agent/protocol';
import { hostname } from './agent/validators';
import { defineResource } from './define';

export const SERVER_PENDING_PREFIX = 'cs-';

export const serverSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  /** The name the user chose, shown while the server keeps its cs- name until it connects. */
  pending_name: z.string().nullable(),
  ip4: z.string().nullable(),
  provider: z.string().nullable(),
  /** The agent is connected right now. */
  connected: z.boolean(),
  is_available: z.boolean(),
  /** Reached through a team rather than owned. */
  is_shared: z.boolean(),
  is_accessible: z.boolean(),
  os_version: z.string().nullable(),
  timezone: z.string().nullable(),
  /**
   * The owner asked, when connecting it, for the panel to set root's password on the server's
   * first opening. Without it root's password is never touched.
   */
  root_password: z.boolean(),
  hostname: z.string().nullable(),
  kernel_version: z.string().nullable(),
  agent_version: z.string().nullable(),
  /** When the agent last reported. */
  last_seen_at: z.string().nullable(),
  /** The latest report, kept while the server is offline. */
  live: reportSchema.nullable(),
  created_at: z.string(),
});
export type Server = z.infer<typeof serverSchema>;

/** A not-yet-connected server keeps its cs- name until the agent reports in. */
export function isPendingInstall(server: Pick<Server, 'name' | 'connected'>): boolean {
  return server.name.startsWith(SERVER_PENDING_PREFIX) && !server.connected;
}

const serverName = z
  .string()
  .trim()
  .min(1, 'Give the server a name')
  .max(100)
  // cs- marks a pending install (spec section 3): a chosen name must not look like one.
  .refine((name) => !name.toLowerCase().startsWith(SERVER_PENDING_PREFIX), {
    message: `A name cannot start with ${SERVER_PENDING_PREFIX}`,
  });
const ip4 = z
  .string()
  .trim()
  .regex(
    /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
    'An IPv4 address like 203.0.113.10',
  );

/** A transfer offer is open this long; then accepting it answers 410. */
export const TRANSFER_DAYS = 7;
/**
 * Open offers (not accepted, not void, not expired) one server may have at a time. With one open
 * offer per server and address, a server reaches at most this many mailboxes a week.
 */
export const MAX_OPEN_OFFERS_PER_SERVER = 3;
/** Transfer offers one user may make in 24 hours, over all their servers, whatever became of them. */
export const MAX_TRANSFER_OFFERS_PER_DAY = 10;

/** `GET transfer/{uuid}`: a transfer offer, as its recipient sees it before accepting. */
export const transferOfferSchema = z.object({
  id: z.string(),
  /** The server's shown name (its chosen name while it waits for its agent). */
  server_name: z.string(),
  /** Who offers it: their user name (their own choice) and their account's address. */
  from_name: z.string(),
  from_email: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type TransferOffer = z.infer<typeof transferOfferSchema>;

/** `POST servers/users/{uid}?action=create`: what the user tells about the new server. */
const serverFields = z.object({
  name: serverName.optional(),
  ip4: ip4.optional(),
  provider: z.string().trim().max(64).optional(),
});

/** `root_password`: set root's password on the first opening (off unless asked for). */
export const newServerBody = serverFields.extend({ root_password: z.boolean().optional() });

/**
 * `PUT servers/{sid}/users/{uid}`. A pending server's new name is kept as its pending name: it
 * stays `cs-` (a pending install, per the spec) until the agent connects.
 */
export const serverInput = serverFields.extend({
  os_version: z.string().max(100).optional(),
  timezone: z.string().max(64).optional(),
});

export const installScriptSchema = z.object({
  /** The one line to run as root on the server. */
  command: z.string(),
  script: z.string(),
});

export const serverEventSchema = z.object({
  event: z.string(),
  /** Progress is ten times the code, in per cent; 10 is done, a negative code failed. */
  code: z.number().int(),
  created_at: z.string(),
});

export const statSampleSchema = z.object({
  /** Start of the sample (epoch seconds). */
  at: z.number().int(),
  cpu: z.number(),
  load: z.number(),
  memory_used: z.number(),
  memory_total: z.number(),
  disk_used: z.number(),
  disk_total: z.number(),
  rx_rate: z.number(),
  tx_rate: z.number(),
});
export type StatSample = z.infer<typeof statSampleSchema>;

const serverLocated = { guard: 'self' } as const;

/** A server: its record, its lifecycle and its machine-wide calls (spec 7 "Servers"). */
export const servers = defineResource({
  name: 'servers',
  label: 'Servers',
  schema: serverSchema,
  input: serverInput,
  paths: { list: 'servers/users/{uid}', one: 'servers/{sid}/users/{uid}' },
  idParam: 'sid',
  ops: {
    list: { guard: 'self', staffMay: true, sort: ['created_at', 'name'] },
    get: { guard: 'self', staffMay: true },
    update: { guard: 'self', method: 'PUT', summary: 'Rename, or save OS and time zone' },
    delete: {
      guard: 'self',
      ownerOnly: 'remove the server',
      summary: 'Remove the server: events and install key go; an online agent removes itself',
    },
  },
  actions: {
    lifecycle: {
      method: 'POST',
      path: 'servers/users/{uid}',
      guard: 'self',
      summary:
        '`action=create` makes a server record; `action=script&sid=` gives its install command and script; `action=install&sid=` marks the install started',
      query: z.object({
        action: z.enum(['create', 'script', 'install']),
        sid: z.coerce.number().int().positive().optional(),
      }),
      // The install script of a server shared with the user's team stays its owner's.
      loads: { sid: { of: 'servers', ownedOnly: true } },
      body: newServerBody.optional(),
      response: z.union([serverSchema, installScriptSchema]),
    },
    events: {
      method: 'GET',
      path: 'servers/{sid}/events/users/{uid}',
      ...serverLocated,
      summary: 'Install events, in order',
      response: z.object({ data: z.array(serverEventSchema) }),
    },
    ping: {
      method: 'GET',
      path: 'ping/servers/{sid}/users/{uid}',
      ...serverLocated,
      summary: "A trivial read through the agent: the server's uptime and the round trip in ms",
      response: z.object({ uptime: z.number(), round_trip_ms: z.number() }),
    },
    reboot: {
      method: 'POST',
      path: 'reboot/servers/{sid}/users/{uid}',
      ...serverLocated,
      response: z.object({ rebooting: z.literal(true) }),
    },
    ostz: {
      method: 'GET',
      path: 'ostz/servers/{sid}/users/{uid}',
      ...serverLocated,
      summary: 'OS and time zone, read from the server and saved',
      changesState: true,
      response: z.object({ os: z.string(), tz: z.string() }),
    },
    cleanup: {
      method: 'PATCH',
      path: 'cleanup/servers/{sid}/users/{uid}',
      ...serverLocated,
      summary: 'Package caches, old logs and journal vacuum; answers the bytes freed',
      response: z.object({ packages: z.number(), logs: z.number(), journal: z.number() }),
    },
    hostname: {
      method: 'PUT',
      path: 'hostname/servers/{sid}/users/{uid}',
      ...serverLocated,
      body: z.object({ hostname }),
      response: z.object({ hostname: z.string() }),
    },
    transfer: {
      method: 'POST',
      path: 'transfer/servers/{sid}/users/{uid}',
      ...serverLocated,
      forbidWhileActing: true,
      ownerOnly: 'transfer the server',
      summary:
        'Offer the server to another user by email; they accept from the mail. One open offer ' +
        'per server and address (409), a few per server (409) and a daily cap per user (429)',
      body: z.object({ email: z.email('Enter a valid email address').max(254).toLowerCase() }),
      response: z.object({ sent: z.literal(true) }),
    },
    transferOffer: {
      method: 'GET',
      path: 'transfer/{uuid}',
      guard: 'user',
      summary:
        'The transfer offered to the caller under this id: 404 when there is none for them, ' +
        '409 when accepted, 410 when expired or no longer valid',
      response: transferOfferSchema,
    },
    acceptTransfer: {
      method: 'GET',
      path: 'transfer',
      guard: 'user',
      summary:
        'Accept a transfer offered to the caller (`processed=true`); every other open offer of ' +
        'the server becomes void',
      query: z.object({ uuid: z.uuid(), processed: z.enum(['true']) }),
      response: serverSchema,
    },
    stats: {
      method: 'GET',
      path: 'stats/servers/{sid}/users/{uid}',
      ...serverLocated,
      summary: 'History: minute samples for a day, half-hour samples for 30 days',
      query: z.object({ range: z.enum(['day', 'month']).default('day') }),
      response: z.object({ data: z.array(statSampleSchema) }),
    },
  },
  ui: { listFields: ['name', 'ip4', 'provider', 'connected'], recordRepresentation: 'name' },
});
