import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';

/**
 * Alerts (issue 23): a user is told when something needs them, by mail and by a webhook. The
 * panel checks its servers every minute (offline, disk, memory), its certificates daily, and
 * hears of failed tasks; one alert stays open per user, kind and subject until it recovers.
 */

/** What an alert is about. `task.failed` and nothing else is a one-off: it never "recovers". */
export const ALERT_KINDS = [
  'server.offline',
  'disk.high',
  'memory.high',
  'cert.expiring',
  'task.failed',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_STATES = ['open', 'closed'] as const;

/** Kinds that close with a "recovered" message when their condition ends. */
export const RECOVERING: readonly AlertKind[] = [
  'server.offline',
  'disk.high',
  'memory.high',
  'cert.expiring',
];

/** A certificate is reported this many days before its end. */
export const CERT_WARNING_DAYS = 14;

const minutes = (what: string) =>
  z.coerce
    .number({ message: `Enter the minutes ${what}` })
    .int('Whole minutes only')
    .min(1, 'At least 1 minute')
    .max(1440, 'At most 1440 minutes (a day)');
const percent = z.coerce
  .number({ message: 'Enter a percentage' })
  .int('A whole percentage')
  .min(1, 'At least 1%')
  .max(99, 'At most 99%');

/**
 * Stands for a webhook URL shown to anyone but its owner (an admin, an admin acting as them);
 * saved back unchanged, it keeps the owner's URL.
 */
export const HIDDEN_URL = '••••••';

/**
 * Where a webhook may post: http(s) only, no credentials in the URL. Whether its host is a
 * private or local address is the panel's check (it resolves the name), at save and at send.
 */
export const webhookUrl = z
  .string()
  .trim()
  .max(500, 'At most 500 characters')
  .refine((value) => value === '' || value === HIDDEN_URL || URL.canParse(value), {
    message: 'Enter a full URL, such as https://hooks.slack.com/services/...',
  })
  .refine((value) => !URL.canParse(value) || /^https?:$/.test(new URL(value).protocol), {
    message: 'The webhook URL must start with https:// or http://',
  });

export const alertSettingsBody = z.object({
  /** Mail the account's address. */
  mail: z.boolean({ message: 'On or off' }),
  /** Slack- or Discord-compatible incoming webhook; empty for none. */
  webhook_url: webhookUrl,
  offline: z.boolean({ message: 'On or off' }),
  offline_minutes: minutes('a server may be offline'),
  disk: z.boolean({ message: 'On or off' }),
  disk_percent: percent,
  disk_minutes: minutes('the disk may stay above it'),
  memory: z.boolean({ message: 'On or off' }),
  memory_percent: percent,
  memory_minutes: minutes('memory may stay above it'),
  cert_expiry: z.boolean({ message: 'On or off' }),
  task_failed: z.boolean({ message: 'On or off' }),
  /** Say an open alert again every this many hours; 0: never while it stays open. */
  repeat_hours: z.coerce
    .number({ message: 'Enter hours (0: never repeat)' })
    .int('Whole hours only')
    .min(0, '0 (never) or more')
    .max(720, 'At most 720 hours (30 days)'),
});
export type AlertSettingsInput = z.input<typeof alertSettingsBody>;

export const alertSettingsSchema = alertSettingsBody.extend({
  id: z.number().int(),
  /** When the user last saved them; null: the defaults. */
  updated_at: z.string().nullable(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/** What a user has before they change anything. */
export const ALERT_DEFAULTS: z.infer<typeof alertSettingsBody> = {
  mail: true,
  webhook_url: '',
  offline: true,
  offline_minutes: 5,
  disk: true,
  disk_percent: 90,
  disk_minutes: 10,
  memory: true,
  memory_percent: 90,
  memory_minutes: 10,
  cert_expiry: true,
  task_failed: true,
  repeat_hours: 0,
};

export const alertSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  /** What it is about, in words: a server's name, a certificate's domain, a task's name. */
  subject: z.string(),
  detail: z.string(),
  state: z.enum(ALERT_STATES),
  server_id: z.number().int().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

/** The history of a user's alerts, newest first: `GET alerts/users/{uid}`. */
export const alerts = defineResource({
  name: 'alerts',
  label: 'Alerts',
  schema: alertSchema,
  paths: { list: 'alerts/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['opened_at', 'closed_at', 'kind'],
      filters: z.object({
        state: z.enum(ALERT_STATES, { message: 'open or closed' }).optional(),
        kind: z.enum(ALERT_KINDS, { message: 'One of the alert kinds' }).optional(),
      }),
      summary: "The user's alerts, newest first: kind, subject, state, opened and closed",
    },
  },
  ui: {
    listFields: ['kind', 'subject', 'state', 'opened_at', 'closed_at'],
    labels: { opened_at: 'Opened', closed_at: 'Closed' },
  },
});

/** One row a user, the defaults when none: `GET`/`PUT alerts/settings/users/{uid}`. */
export const alertSettings = defineResource({
  name: 'alert-settings',
  label: 'Alert settings',
  schema: alertSettingsSchema,
  input: alertSettingsBody,
  paths: {},
  ops: {},
  actions: {
    read: {
      method: 'GET',
      path: 'alerts/settings/users/{uid}',
      guard: 'self',
      summary: "The user's alert settings (the defaults until saved); the webhook URL to its owner",
      response: alertSettingsSchema,
    },
    save: {
      method: 'PUT',
      path: 'alerts/settings/users/{uid}',
      guard: 'self',
      summary:
        'Save thresholds, channels and quiet repeats; a webhook URL on a private or local address is refused',
      body: alertSettingsBody,
      response: alertSettingsSchema,
    },
  },
  ui: {
    labels: {
      mail: 'Mail me',
      webhook_url: 'Webhook URL',
      offline: 'Server offline',
      offline_minutes: 'Offline for more than (minutes)',
      disk: 'Disk nearly full',
      disk_percent: 'Disk above (%)',
      disk_minutes: 'Disk above it for (minutes)',
      memory: 'Memory nearly used up',
      memory_percent: 'Memory above (%)',
      memory_minutes: 'Memory above it for (minutes)',
      cert_expiry: 'Certificate expiring within 14 days',
      task_failed: 'Failed deploy, install or job',
      repeat_hours: 'Repeat an open alert every (hours)',
    },
    help: {
      webhook_url:
        'A Slack or Discord incoming webhook (we post {"text", "content"}); empty for none. Private and local addresses are refused.',
      repeat_hours: '0: say it once, and again only when it recovers',
    },
  },
});

/** The resources of alerts. */
export const resources = {
  alerts,
  'alert-settings': alertSettings,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: alerts live in the panel. */
export const ops = {};
