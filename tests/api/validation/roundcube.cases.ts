import type { Case } from '../validation.test';
import { app } from './webapps.cases';

/**
 * Bad input to the Roundcube installer (mail servers are host:port, nothing else) and to its
 * sign-on (a mailbox by its id).
 */
export const cases: Case[] = [
  {
    route: 'POST /api/v1/roundcube/servers/:sid/users/:uid',
    as: 'user',
    body: {
      name: 'mail',
      domains: ['mail.example.com'],
      sys_user: 'alice',
      imap_host: 'localhost; rm -rf /',
      smtp_host: 'smtp://x:25',
      product_name: '',
    },
    errors: { imap_host: /host:port/, smtp_host: /host:port/, product_name: /title/ },
  },
  {
    route: 'POST /api/v1/roundcube-sso/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: { mailbox_id: 'info@shop.example' },
    errors: { mailbox_id: /id of a mailbox/ },
    params: app,
  },
  {
    route: 'POST /api/v1/roundcube-sso/:appId/servers/:sid/users/:uid',
    as: 'user',
    body: {},
    errors: { mailbox_id: /id of a mailbox/ },
    params: app,
  },
];
