import { OFFLINE, type Row, SHARED } from './support';

/**
 * The mail-authentication calls of an app. The fixture's app has no mail domain, so the values
 * and the check answer an empty list; publish names a domain of the app's with mail (made here)
 * on a server whose address is unknown: 409 to everyone past the guard and the tenant check.
 */
const server = 'webstack/:appId/servers/:sid/users/:uid';
export const rows: Row[] = [
  ...['dkim-display', 'dmarc', 'generate-spf', 'mx', 'mail-dns-check'].map((call): Row => ({
    route: `GET /api/v1/${call}/${server}`,
    expect: SHARED,
  })),
  {
    route: `POST /api/v1/mail-dns-publish/${server}`,
    body: async (f) => {
      await f.t.app.db
        .insertInto('mail_domains')
        .values({
          server_id: f.serverId,
          webapp_id: f.appId,
          domain: 'shop.example.com',
          dkim_public_key: 'A'.repeat(60),
          selector: 'mail',
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['webapp_id', 'domain']).doNothing())
        .execute();
      return { domain: 'shop.example.com' };
    },
    expect: OFFLINE,
  },
];
