import { ManagedStore } from '../../../server/managed/store';
import type { Case } from '../validation.test';

const job = { sys_user: 'root', schedule: '@daily', command: 'true' };

/** Bad input on cron jobs: the schedule, the command's one line, the user's name. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/cronjobs/servers/:sid/users/:uid',
    as: 'user',
    body: {},
    errors: { sys_user: /./, schedule: /./, command: /./ },
  },
  {
    route: 'POST /api/v1/cronjobs/servers/:sid/users/:uid',
    as: 'user',
    body: { ...job, schedule: '* * * 13 *', command: 'a\nb', sys_user: 'Bad Name' },
    errors: { schedule: /month/, command: 'The command must be one line', sys_user: /./ },
  },
  {
    route: 'GET /api/v1/cronjobs/servers/:sid/users/:uid',
    as: 'user',
    query: '?sync=maybe',
    errors: { sync: /./ },
  },
  {
    route: 'PUT /api/v1/cronjobs/:cronId/servers/:sid/users/:uid',
    as: 'user',
    body: { ...job, schedule: '@sometimes' },
    errors: { schedule: /Unknown schedule/ },
    params: async ({ t, serverId }) => {
      const row = await new ManagedStore(t.app.db, 'cronjobs').insert(serverId, job);
      return { cronId: row.id };
    },
  },
  {
    // A PUT replaces the job: a part of it is refused, not merged (no silent pause).
    route: 'PUT /api/v1/cronjobs/:cronId/servers/:sid/users/:uid',
    as: 'user',
    body: { command: 'true' },
    errors: { sys_user: /./, schedule: /./ },
    params: async ({ t, serverId }) => {
      const row = await new ManagedStore(t.app.db, 'cronjobs').insert(serverId, job);
      return { cronId: row.id };
    },
  },
];
