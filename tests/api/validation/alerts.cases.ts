import type { Case } from '../validation.test';

const anything = /./;

/** Bad input on the alert routes: every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/alerts/users/:uid',
    as: 'user',
    query: '?state=pending&kind=fire&sort=detail',
    errors: { state: 'open or closed', kind: 'One of the alert kinds', sort: anything },
  },
  {
    route: 'PUT /api/v1/alerts/settings/users/:uid',
    as: 'user',
    body: {},
    errors: Object.fromEntries(
      [
        'mail',
        'webhook_url',
        'offline',
        'offline_minutes',
        'disk',
        'disk_percent',
        'disk_minutes',
        'memory',
        'memory_percent',
        'memory_minutes',
        'cert_expiry',
        'task_failed',
        'repeat_hours',
      ].map((field) => [field, anything]),
    ),
  },
  {
    route: 'PUT /api/v1/alerts/settings/users/:uid',
    as: 'user',
    body: {
      mail: 'yes',
      webhook_url: 'ftp://hooks.example.com/x',
      offline: true,
      offline_minutes: 0,
      disk: true,
      disk_percent: 100,
      disk_minutes: 1.5,
      memory: true,
      memory_percent: 0,
      memory_minutes: 2000,
      cert_expiry: true,
      task_failed: true,
      repeat_hours: -1,
    },
    errors: {
      mail: 'On or off',
      webhook_url: 'The webhook URL must start with https:// or http://',
      offline_minutes: 'At least 1 minute',
      disk_percent: 'At most 99%',
      disk_minutes: 'Whole minutes only',
      memory_percent: 'At least 1%',
      memory_minutes: 'At most 1440 minutes (a day)',
      repeat_hours: '0 (never) or more',
    },
  },
];
