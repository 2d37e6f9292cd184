import type { Case } from '../validation.test';

const bad = {
  name: '-x',
  domains: [],
  sys_user: 'root',
  admin_user: 'root',
  admin_email: 'x@',
  admin_password: 'short',
};
const errors = {
  name: /letters/,
  domains: /domain/,
  sys_user: /./,
  admin_user: /bots/,
  admin_email: /mail address/,
  admin_password: /12 characters/,
};

/** Bad input to the Nextcloud, Joomla and Moodle installers, each at its field. */
export const cases: Case[] = [
  { route: 'POST /api/v1/nextcloud/servers/:sid/users/:uid', as: 'user', body: bad, errors },
  {
    route: 'POST /api/v1/joomla/servers/:sid/users/:uid',
    as: 'user',
    body: { ...bad, title: '' },
    errors: { ...errors, title: /title/ },
  },
  {
    route: 'POST /api/v1/moodle/servers/:sid/users/:uid',
    as: 'user',
    body: { ...bad, title: 'School', short_name: 'two words' },
    errors: { ...errors, short_name: /One word/ },
  },
];

cases.push({
  route: 'POST /api/v1/phpmyadmin/servers/:sid/users/:uid',
  as: 'user',
  body: { name: 'PMA', domains: ['x'], sys_user: 'root', stack_type: 'iis' },
  errors: { name: /letters/, 'domains.0': /domain/, sys_user: /./, stack_type: /./ },
});
