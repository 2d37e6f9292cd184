import type { Case } from '../validation.test';

/** Bad input to the WordPress installer: each field refused at its name, nothing made. */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/wordpress/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'Blog!',
      domains: ['not a domain'],
      sys_user: 'root',
      php_version: '8',
      title: '<script>',
      admin_user: 'admin',
      admin_email: 'nobody',
      admin_password: 'short',
      public: 'yes',
    },
    errors: {
      name: /letters/,
      'domains.0': /domain/,
      sys_user: /./,
      php_version: /PHP version/,
      title: /One line/,
      admin_user: /bots/,
      admin_email: /mail address/,
      admin_password: /12 characters/,
      public: /./,
    },
  },
];
