import type { Case } from '../validation.test';
import { app } from './webapps.cases';

/** Bad input to a clone: the copy's name, domains and user, each at its field. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/clone-webapp/webstacks/:appId/servers/:sid/users/:uid',
    as: 'user',
    params: app,
    body: { name: 'Copy Of', domains: ['a b'], sys_user: '../x' },
    errors: { name: /letters/, 'domains.0': /domain/, sys_user: /./ },
  },
];
