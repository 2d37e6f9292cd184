import { OFFLINE, type Row } from './support';

/**
 * The WordPress installer: the owner and the team member (through the shared server) pass the
 * guard and the tenant check, and the fixture's server has no agent, so the install is refused
 * at once as offline; nothing is made.
 */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/wordpress/servers/:sid/users/:uid',
    body: () => ({
      name: 'blog',
      domains: ['blog.example.com'],
      sys_user: 'alice',
      title: 'A blog',
      admin_user: 'editor1',
      admin_email: 'editor@example.com',
    }),
    expect: OFFLINE,
  },
];
