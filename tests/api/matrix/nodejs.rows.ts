import { OFFLINE, type Row } from './support';

/**
 * The Node.js installer: the owner and the team member (through the shared server) pass the
 * guard and the tenant check, and the fixture's server has no agent, so the install is refused
 * at once as offline; nothing is made.
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/nodejs/servers/:sid/users/:uid',
    body: () => ({
      name: 'api',
      domains: ['api.example.com'],
      sys_user: 'alice',
      git_url: 'https://git.example.com/acme/app.git',
    }),
    expect: OFFLINE,
  },
];
