import type { Case } from '../validation.test';
import { app } from './webapps.cases';

/** Bad input on the mail-authentication calls: the domain and the DMARC policy. */
const server = 'webstack/:appId/servers/:sid/users/:uid';
export const cases: Case[] = [
  ...['dkim-display', 'dmarc', 'generate-spf', 'mx', 'mail-dns-check'].map((call): Case => ({
    route: `GET /api/v1/${call}/${server}`,
    as: 'user',
    query: '?domain=not%20a%20domain',
    errors: { domain: /./ },
    params: app,
  })),
  {
    route: `POST /api/v1/mail-dns-publish/${server}`,
    as: 'user',
    body: { domain: 'no', dmarc_policy: 'reject' },
    errors: { domain: /./, dmarc_policy: /./ },
    params: app,
  },
];
