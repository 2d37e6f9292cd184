import type { Case } from '../validation.test';
import { app } from './webapps.cases';

/** Bad paging of a log (the app is a real one of the user's server: `?wsid=:appId`). */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/nginxlog/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&scroll_count=0&type=debug',
    errors: { scroll_count: /./, type: /./ },
    params: app,
  },
  {
    route: 'GET /api/v1/apachelog/servers/:sid/users/:uid',
    as: 'user',
    query: '?wsid=:appId&scroll_count=-1',
    errors: { scroll_count: /./ },
    params: app,
  },
];
