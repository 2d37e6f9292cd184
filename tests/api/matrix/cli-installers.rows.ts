import { OFFLINE, type Row } from './support';

const admin = { sys_user: 'alice', admin_user: 'owner1', admin_email: 'owner@example.com' };

/** Nextcloud, Joomla and Moodle installers: as WordPress's, refused at once for the offline server. */
export const rows: Row[] = [
  {
    route: 'POST /api/v1/nextcloud/servers/:sid/users/:uid',
    body: () => ({ name: 'cloud', domains: ['cloud.example.com'], ...admin }),
    expect: OFFLINE,
  },
  {
    route: 'POST /api/v1/joomla/servers/:sid/users/:uid',
    body: () => ({ name: 'cms', domains: ['cms.example.com'], title: 'A site', ...admin }),
    expect: OFFLINE,
  },
  {
    route: 'POST /api/v1/moodle/servers/:sid/users/:uid',
    body: () => ({
      name: 'school',
      domains: ['school.example.com'],
      title: 'A school',
      short_name: 'school',
      ...admin,
    }),
    expect: OFFLINE,
  },
];

/** phpMyAdmin's installer: the new app's fields only. */
rows.push({
  route: 'POST /api/v1/phpmyadmin/servers/:sid/users/:uid',
  body: () => ({ name: 'pma', domains: ['pma.example.com'], sys_user: 'alice' }),
  expect: OFFLINE,
});
