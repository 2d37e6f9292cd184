import { ADMIN, type Row } from './support';

/**
 * The 911 tool: admins only (admin staff do not have it, spec s.6). The run's code here is
 * not the admin's (the matrix mails none), so the admin gets its 400 at `otp` once past the
 * guard; tests/api/emergency-scripts.test.ts runs scripts with real codes.
 */
export const rows: Row[] = [
  { route: 'GET /api/v1/admin/911-scripts', expect: ADMIN },
  {
    route: 'GET /api/v1/admin/911-scripts/:id',
    params: async () => ({ id: 'free-disk' }),
    expect: ADMIN,
  },
  {
    route: 'PATCH /api/v1/admin/common-script',
    query: () => '?otp=123456',
    body: (f) => ({ script: 'restart-web-stack', servers: [f.serverId] }),
    expect: { ...ADMIN, admin: 400 },
  },
];
