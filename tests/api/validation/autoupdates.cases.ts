import type { Case } from '../validation.test';

/** Automatic updates take two booleans, nothing else. */
export const cases: Case[] = [
  {
    route: 'PATCH /api/v1/thirdpartyupd/servers/:sid/users/:uid',
    as: 'user',
    body: { security_update: 'yes', software_update: 1 },
    errors: { security_update: /./, software_update: /./ },
  },
];
