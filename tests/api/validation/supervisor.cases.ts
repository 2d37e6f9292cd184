import type { Case } from '../validation.test';

const job = { name: 'web', command: '/bin/sleep 60', directory: '/tmp', user: 'root' };

/** Bad input on supervisor jobs: names, the command's one line and comments, paths, actions. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/svjobs/servers/:sid/users/:uid',
    as: 'user',
    body: {},
    errors: { name: /./, command: /./, directory: /./, user: /./ },
  },
  {
    route: 'POST /api/v1/svjobs/servers/:sid/users/:uid',
    as: 'user',
    query: '?rebuild=maybe',
    body: job,
    errors: { rebuild: /./ },
  },
  {
    route: 'POST /api/v1/svjobs/servers/:sid/users/:uid',
    as: 'user',
    body: { ...job, name: '-x', command: 'a\nb', directory: '/tmp/../etc', numprocs: 0 },
    errors: {
      name: /starting with a letter/,
      command: 'The command must be one line',
      directory: 'No .. in the path',
      numprocs: 'At least 1',
    },
  },
  {
    route: 'GET /api/v1/svjobs/servers/:sid/users/:uid',
    as: 'user',
    query: '?sync=maybe',
    errors: { sync: /./ },
  },
  {
    route: 'GET /api/v1/svjobs/handle/servers/:sid/users/:uid',
    as: 'user',
    query: '?name=Web&action=kill',
    errors: { name: /./, action: /./ },
  },
  {
    route: 'GET /api/v1/svjobs/logs/servers/:sid/users/:uid',
    as: 'user',
    query: '?name=web&process=99',
    errors: { process: /./ },
  },
];
