import { describe, expect, it } from 'vitest';
import { certbotCause } from '../../features/ssl/certbotCause';

/**
 * certbot's own reports, as it prints them (certbot 2.x's auth_handler and its errors from
 * Let's Encrypt's Boulder): each failure is said as its cause, without a traceback.
 */
const report = (
  domain: string,
  type: string,
  detail: string,
) => `Saving debug log to /var/log/letsencrypt/letsencrypt.log
Requesting a certificate for ${domain}

Certbot failed to authenticate some domains (authenticator: webroot). The Certificate Authority reported these problems:
  Domain: ${domain}
  Type:   ${type}
  Detail: ${detail}

Hint: The Certificate Authority failed to download the temporary challenge files created by Certbot. Ensure that the listed domains serve their content from the provided --webroot-path/-w and that files created there can be downloaded from the internet.

Some challenges have failed.
Ask for help or search for solutions at https://community.letsencrypt.org. See the logfile /var/log/letsencrypt/letsencrypt.log or re-run Certbot with -v for more details.`;

const TRACEBACK = `Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/urllib3/connection.py", line 174, in _new_conn
    conn = connection.create_connection(
  File "/usr/lib/python3/dist-packages/urllib3/util/connection.py", line 95, in create_connection
    raise err
ConnectionRefusedError: [Errno 111] Connection refused
`;

describe('certbotCause', () => {
  it('says a domain that does not resolve', () => {
    const cause = certbotCause(
      report(
        'shop.example.com',
        'dns',
        'DNS problem: NXDOMAIN looking up A for shop.example.com - check that a DNS record exists for this domain; DNS problem: NXDOMAIN looking up AAAA for shop.example.com - check that a DNS record exists for this domain',
      ),
    );
    expect(cause).toMatch(/^shop\.example\.com does not resolve: DNS has no record/);
  });

  it("says it from pebble's words too (the test CA)", () => {
    const cause = certbotCause(
      report(
        'broken.test',
        'connection',
        'Get "http://broken.test:80/.well-known/acme-challenge/iiDA1s86": could not resolve URL "http://broken.test:80/.well-known/acme-challenge/iiDA1s86"',
      ),
    );
    expect(cause).toMatch(/^broken\.test does not resolve/);
  });

  it('says port 80 refused or timed out', () => {
    expect(
      certbotCause(
        report(
          'a.example.com',
          'connection',
          '203.0.113.7: Fetching http://a.example.com/.well-known/acme-challenge/Xk2s: Connection refused',
        ),
      ),
    ).toMatch(/could not connect to a\.example\.com on port 80 \(connection refused\)/);
    expect(
      certbotCause(
        report(
          'a.example.com',
          'connection',
          '203.0.113.7: Fetching http://a.example.com/.well-known/acme-challenge/Xk2s: Timeout during connect (likely firewall problem)',
        ),
      ),
    ).toMatch(/on port 80 \(timed out\): let port 80 in through the firewall/);
  });

  it('says the challenge file was not served, with the status', () => {
    const cause = certbotCause(
      report(
        'b.example.com',
        'unauthorized',
        '203.0.113.7: Invalid response from http://b.example.com/.well-known/acme-challenge/Xk2s: 404',
      ),
    );
    expect(cause).toMatch(/^b\.example\.com did not serve the challenge file \(it answered 404\)/);
  });

  it('says a rate limit, with when to try again', () => {
    const cause = certbotCause(`Saving debug log to /var/log/letsencrypt/letsencrypt.log
Requesting a certificate for c.example.com
An unexpected error occurred:
too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, retry after 2026-11-28 10:00:00 UTC: see https://letsencrypt.org/docs/rate-limits/#new-certificates-per-exact-set-of-identifiers
Ask for help or search for solutions at https://community.letsencrypt.org. See the logfile /var/log/letsencrypt/letsencrypt.log or re-run Certbot with -v for more details.`);
    expect(cause).toMatch(/rate limit .* try again later \(again after 2026-11-28 10:00:00 UTC\)/);
  });

  it('says a CAA record and a name no CA issues for', () => {
    expect(
      certbotCause(
        report('d.example.com', 'caa', 'CAA record for d.example.com prevents issuance'),
      ),
    ).toMatch(/CAA record of d\.example\.com forbids/);
    expect(
      certbotCause(`An unexpected error occurred:
Error creating new order :: Cannot issue for "shop.test": Domain name does not end with a valid public suffix (TLD)`),
    ).toMatch(/does not issue for shop\.test: it must be a public domain name/);
  });

  it('says an unreachable CA without the traceback', () => {
    const cause = certbotCause(`Saving debug log to /var/log/letsencrypt/letsencrypt.log
${TRACEBACK}
An unexpected error occurred:
requests.exceptions.ConnectionError: HTTPSConnectionPool(host='localhost', port=14999): Max retries exceeded with url: /dir (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3c2a1e5d50>: Failed to establish a new connection: [Errno 111] Connection refused'))
Ask for help or search for solutions at https://community.letsencrypt.org.`);
    expect(cause).toBe(
      "The certificate authority could not be reached from this server (connection refused): check the server's outgoing connections and DNS",
    );
  });

  it('falls back to what certbot said, never a traceback', () => {
    const cause = certbotCause(`Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/certbot/_internal/main.py", line 1864, in main
    return config.func(config, plugins)
acme.errors.ClientError: the account is deactivated
An unexpected error occurred:
acme.errors.ClientError: the account is deactivated`);
    expect(cause).toBe(
      'The certificate authority refused: An unexpected error occurred: the account is deactivated',
    );
    expect(cause).not.toMatch(/Traceback|File "|acme\.errors/);
  });
});
