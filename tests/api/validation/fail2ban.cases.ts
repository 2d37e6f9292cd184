import type { Case } from '../validation.test';

/** Bad attempt limits: each field named, with the limit it broke. */
const KINDS = ['max-attempts', 'ssh-max', 'imap-max', 'pop-max', 'smt-max'];

export const cases: Case[] = KINDS.flatMap((kind): Case[] => [
  {
    route: `PATCH /api/v1/csf/${kind}/servers/:sid/users/:uid`,
    as: 'user',
    body: { value: 101, ban_time: 10, find_time: 100_000 },
    errors: {
      value: 'At most 100',
      ban_time: 'At least 60 seconds',
      find_time: 'At most 1 day (86400 seconds)',
    },
  },
  {
    route: `PATCH /api/v1/csf/${kind}/servers/:sid/users/:uid`,
    as: 'user',
    body: { value: -1, ban_time: 1.5, find_time: 'soon' },
    errors: { value: '0 (off) or more', ban_time: 'Whole seconds', find_time: /./ },
  },
]);
