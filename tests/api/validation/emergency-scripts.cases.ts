import type { Case } from '../validation.test';

const anything = /./;

/** Bad input on the 911 tool: every 400 names its fields, before any code is checked. */
export const cases: Case[] = [
  {
    route: 'PATCH /api/v1/admin/common-script',
    as: 'admin',
    body: { script: 'restart-web-stack', servers: [1] },
    errors: { otp: anything },
  },
  {
    route: 'GET /api/v1/admin/911-scripts',
    as: 'admin',
    query: '?page=0&perPage=1000',
    errors: { page: anything, perPage: anything },
  },
  {
    route: 'PATCH /api/v1/admin/common-script',
    as: 'admin',
    query: '?otp=12345x',
    body: { script: 'restart-web-stack', servers: [1] },
    errors: { otp: 'Enter the 6-digit code' },
  },
  {
    route: 'PATCH /api/v1/admin/common-script',
    as: 'admin',
    query: '?otp=123456',
    body: {},
    errors: { script: anything, servers: anything },
  },
  {
    route: 'PATCH /api/v1/admin/common-script',
    as: 'admin',
    query: '?otp=123456',
    body: {
      script: 'rm -rf /',
      servers: [0, 'x'],
      params: { keep_days: 5, wait_seconds: 7, kill_stale: 'yes', command: 'id' },
    },
    errors: {
      script: anything,
      'servers.0': anything,
      'servers.1': anything,
      'params.keep_days': 'Days kept: one of 1, 3, 7, 14, 30',
      'params.wait_seconds': 'Seconds to wait: one of 0, 30, 60, 120, 300',
      'params.kill_stale': anything,
      params: anything,
    },
  },
  {
    route: 'PATCH /api/v1/admin/common-script',
    as: 'admin',
    query: '?otp=123456',
    body: { script: 'free-disk', servers: [] },
    errors: { servers: 'Pick at least one server' },
  },
];
