import { type Row, SELF } from './support';

const settings = {
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

/** Authorization matrix rows of alerts: a user's own history and settings (admins may name them). */
export const rows: Row[] = [
  { route: 'GET /api/v1/alerts/users/:uid', query: () => '?state=open', expect: SELF },
  { route: 'GET /api/v1/alerts/settings/users/:uid', expect: SELF },
  { route: 'PUT /api/v1/alerts/settings/users/:uid', body: () => settings, expect: SELF },
];
