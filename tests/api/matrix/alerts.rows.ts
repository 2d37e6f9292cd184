import { ALERT_DEFAULTS } from '../../../features/alerts/resource';
import { type Row, SELF } from './support';

const settings = { ...ALERT_DEFAULTS };

/** Authorization matrix rows of alerts: a user's own history and settings (admins may name them). */
export const rows: Row[] = [
  { route: 'GET /api/v1/alerts/users/:uid', query: () => '?state=open', expect: SELF },
  { route: 'GET /api/v1/alerts/settings/users/:uid', expect: SELF },
  { route: 'PUT /api/v1/alerts/settings/users/:uid', body: () => settings, expect: SELF },
];
