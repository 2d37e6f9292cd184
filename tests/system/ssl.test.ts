import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type TestPki, makePki } from '../api/sslFixtures';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * SSL on a real server: an uploaded certificate (a CA made with openssl here) and one issued
 * by an ACME CA (pebble, inside the sandbox, on loopback only) are served by nginx on 443;
 * `curl` inside the sandbox, trusting only the test CA, is the client.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let pki: TestPki;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const one = (p: string, id: number) => `${p}/${id}/servers/${server.id}/users/${panel.uid}`;

/** `curl` inside the sandbox: status, body and where a redirect points. */
async function curl(args: string[]) {
  const res = await sb.exec([
    'curl',
    '-s',
    '-o',
    '/tmp/body',
    '-w',
    '%{http_code} %{redirect_url}',
    '--max-time',
    '10',
    ...args,
  ]);
  const [status, location] = res.stdout.trim().split(' ');
  const body = (await sb.exec(['cat', '/tmp/body'])).stdout;
  return { code: res.code, status: Number(status), location, body };
}
const https = (domain: string, ca: string, url = '/') =>
  curl(['--cacert', ca, '--resolve', `${domain}:443:127.0.0.1`, `https://${domain}${url}`]);
const http = (domain: string, url = '/') =>
  curl(['-H', `Host: ${domain}`, `http://127.0.0.1${url}`]);

async function put(file: string, content: string) {
  await sb.execOk(['tee', file], { input: content });
}

async function createApp(name: string, domains: string[]) {
  const res = await panel.api('POST', path('webstacks'), { name, domains, sys_user: 'alice' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

beforeAll(async () => {
  pki = await makePki();
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'ssl', ['nginx', 'php8.2-fpm']));
  const res = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(res.statusCode, res.body).toBe(201);
  await put('/root/test-ca.pem', pki.ca);
}, 300_000);

afterAll(async () => {
  delete process.env.ACME_DIRECTORY_URL;
  delete process.env.ACME_CA_BUNDLE;
  await sb?.stop();
  await panel?.close();
  pki?.close();
});

describe('uploaded certificates on a sandbox server', () => {
  let shop: { id: number };
  let certId: number;

  it('serves the app over HTTPS with the uploaded certificate and chain', async () => {
    shop = await createApp('shop', ['shop.test', 'www.shop.test']);
    const leaf = await pki.leaf(['shop.test', 'www.shop.test']);
    const res = await panel.api('POST', path('sslcerts'), {
      webapp_id: shop.id,
      certificate: leaf.certificate,
      private_key: leaf.key,
      chain: pki.intermediate,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'active', names: ['shop.test', 'www.shop.test'] });
    certId = res.json().id as number;

    const page = await https('shop.test', '/root/test-ca.pem');
    expect(page.code, JSON.stringify(page)).toBe(0);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/shop\.test runs PHP/);
    expect((await https('www.shop.test', '/root/test-ca.pem')).status).toBe(200);
    // Plain HTTP still serves the app until HTTPS is forced.
    expect((await http('shop.test')).status).toBe(200);

    // The key is root's alone.
    const modes = await sb.execOk([
      'stat',
      '-c',
      '%n %a %U',
      '/etc/stackdeck/ssl/app-shop',
      '/etc/stackdeck/ssl/app-shop/privkey.pem',
      '/etc/stackdeck/ssl/app-shop/fullchain.pem',
    ]);
    expect(modes.stdout.trim().split('\n')).toEqual([
      '/etc/stackdeck/ssl/app-shop 700 root',
      '/etc/stackdeck/ssl/app-shop/privkey.pem 600 root',
      '/etc/stackdeck/ssl/app-shop/fullchain.pem 600 root',
    ]);
  });

  it('forces HTTPS: plain HTTP redirects, the ACME challenge still answers on port 80', async () => {
    const res = await panel.api('PATCH', one('sslcerts', certId), { force_https: true });
    expect(res.statusCode, res.body).toBe(200);
    const plain = await http('shop.test', '/some/page?x=1');
    expect(plain.status).toBe(301);
    expect(plain.location).toBe('https://shop.test/some/page?x=1');
    const probe = await http('shop.test', '/.well-known/acme-challenge/stackdeck-probe');
    expect(probe.status).toBe(200);
    expect(probe.body.trim()).toBe('stackdeck');
    expect((await https('shop.test', '/root/test-ca.pem')).status).toBe(200);
  });

  it('takes the certificate off: its files and its HTTPS server go', async () => {
    const res = await panel.api('DELETE', one('sslcerts', certId));
    expect(res.statusCode, res.body).toBe(200);
    const gone = await sb.exec(['test', '-e', '/etc/stackdeck/ssl/app-shop']);
    expect(gone.code).not.toBe(0);
    expect((await https('shop.test', '/root/test-ca.pem')).code).not.toBe(0);
    expect((await http('shop.test')).status).toBe(200);
  });
});

describe("Let's Encrypt (pebble) on a sandbox server", () => {
  let blog: { id: number };
  let certId: number;

  beforeAll(async () => {
    // pebble's own HTTPS (its directory) with a certificate of the test CA, for certbot.
    const tls = await pki.leaf(['localhost']);
    await sb.execOk(['mkdir', '-p', '/root/pebble']);
    await put('/root/pebble/cert.pem', `${tls.certificate}${pki.intermediate}`);
    await put('/root/pebble/key.pem', tls.key);
    await put(
      '/root/pebble/config.json',
      JSON.stringify({
        pebble: {
          listenAddress: '127.0.0.1:14000',
          managementListenAddress: '127.0.0.1:15000',
          certificate: '/root/pebble/cert.pem',
          privateKey: '/root/pebble/key.pem',
          httpPort: 80,
          tlsPort: 443,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
        },
      }),
    );
    // Every name resolves to loopback for pebble's validation (its own DNS test server).
    await sb.execOk([
      'bash',
      '-c',
      'setsid nohup pebble-challtestsrv -defaultIPv4 127.0.0.1 -defaultIPv6 "" -dns01 127.0.0.1:8053 -http01 "" -https01 "" -tlsalpn01 "" -management 127.0.0.1:8055 > /root/pebble/challtestsrv.log 2>&1 < /dev/null &',
    ]);
    await sb.execOk([
      'bash',
      '-c',
      'PEBBLE_VA_NOSLEEP=1 PEBBLE_VA_ALWAYS_VALID=0 PEBBLE_WFE_NONCEREJECT=0 setsid nohup pebble -config /root/pebble/config.json -dnsserver 127.0.0.1:8053 > /root/pebble/pebble.log 2>&1 < /dev/null &',
    ]);
    await sb.waitFor(
      async () =>
        (
          await sb.exec([
            'curl',
            '-s',
            '--cacert',
            '/root/test-ca.pem',
            'https://localhost:14000/dir',
          ])
        ).code === 0,
      30_000,
    );
    await put('/root/pebble/ca-bundle.pem', pki.ca);
    process.env.ACME_DIRECTORY_URL = 'https://localhost:14000/dir';
    process.env.ACME_CA_BUNDLE = '/root/pebble/ca-bundle.pem';
  }, 120_000);

  it('issues a certificate with certbot and serves it', async () => {
    blog = await createApp('blog', ['blog.test', 'www.blog.test']);
    const res = await panel.api('POST', path('letsencrypt'), {
      webapp_id: blog.id,
      email: 'ops@example.com',
      force_https: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const cert = res.json();
    expect(cert).toMatchObject({
      type: 'letsencrypt',
      status: 'active',
      names: expect.arrayContaining(['blog.test', 'www.blog.test']),
      issuer: expect.stringMatching(/Pebble/),
    });
    certId = cert.id as number;
    // Pebble's issuing root, from its management endpoint.
    await sb.execOk([
      'bash',
      '-c',
      'curl -s --cacert /root/test-ca.pem https://localhost:15000/roots/0 > /root/pebble/root.pem',
    ]);
    const page = await https('blog.test', '/root/pebble/root.pem');
    expect(page.code, JSON.stringify(page)).toBe(0);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/blog\.test runs PHP/);
    expect((await http('www.blog.test')).status).toBe(301);
  }, 300_000);

  it("says the CA's refusal and keeps the app as it was", async () => {
    process.env.ACME_DIRECTORY_URL = 'https://localhost:14999/dir';
    try {
      const shop = (await panel.api('GET', `${path('webstacks')}?perPage=50`)).json() as {
        data: { id: number; name: string }[];
      };
      const id = shop.data.find((a) => a.name === 'shop')!.id;
      const res = await panel.api('POST', path('letsencrypt'), { webapp_id: id });
      expect(res.statusCode, res.body).toBe(400);
      // The cause in words (the CA's directory refuses connections), never certbot's traceback.
      expect(res.json().errors.domains).toMatch(
        /^The certificate authority could not be reached from this server \(connection refused\)/,
      );
      expect(res.json().errors.domains).not.toMatch(/Traceback|requests\.exceptions|Errno/);
      expect((await panel.api('GET', `${path('sslcerts')}?webapp_id=${id}`)).json().total).toBe(0);
      expect((await http('shop.test')).status).toBe(200);
    } finally {
      process.env.ACME_DIRECTORY_URL = 'https://localhost:14000/dir';
    }
  }, 300_000);

  it('says a domain whose DNS fails as the cause, in words', async () => {
    // pebble's DNS answers SERVFAIL for this name, as a broken zone's servers do.
    await sb.execOk([
      'curl',
      '-s',
      '-d',
      '{"host":"broken.test."}',
      'http://127.0.0.1:8055/set-servfail',
    ]);
    const broken = await createApp('broken', ['broken.test']);
    const res = await panel.api('POST', path('letsencrypt'), { webapp_id: broken.id });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.domains).toMatch(/^broken\.test does not resolve: DNS has no record/);
    expect(res.json().errors.domains).not.toMatch(/Traceback|letsencrypt\.log/);
  }, 300_000);

  it('reads the certificate back from the server', async () => {
    const res = await panel.api('GET', `${path('sslcerts')}?sync=true`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ id: certId, drift: null })]);
  });

  it('renews it now', async () => {
    const before = (await panel.api('GET', one('sslcerts', certId))).json();
    const res = await panel.api('PATCH', one('letsencrypt', certId));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('active');
    const serial = async () =>
      (
        await sb.execOk([
          'openssl',
          'x509',
          '-noout',
          '-serial',
          '-in',
          '/etc/stackdeck/ssl/app-blog/fullchain.pem',
        ])
      ).stdout;
    const first = await serial();
    await panel.api('PATCH', one('letsencrypt', certId));
    expect(await serial()).not.toBe(first);
    expect(res.json().not_before >= before.not_before).toBe(true);
    expect((await https('blog.test', '/root/pebble/root.pem')).status).toBe(200);
  }, 300_000);

  it("renews on the server's own schedule: the hook hands the new certificate to nginx", async () => {
    const cron = await sb.execOk(['cat', '/etc/cron.d/stackdeck-certbot']);
    const line = cron.stdout.split('\n').find((l) => l.includes('certbot renew'))!;
    expect(line).toMatch(/^17 3,15 \* \* \* root certbot renew -q /);
    const serial = async () =>
      (
        await sb.execOk([
          'openssl',
          'x509',
          '-noout',
          '-serial',
          '-in',
          '/etc/stackdeck/ssl/app-blog/fullchain.pem',
        ])
      ).stdout;
    const before = await serial();
    // The cron line's command, renewal forced (pebble's certificates are long) and without
    // the random wait certbot takes off a terminal.
    const command = line
      .replace(/^17 3,15 \* \* \* root /, '')
      .replace(' -q ', ' -q --force-renewal --no-random-sleep-on-renew ');
    await sb.execOk(['bash', '-c', `REQUESTS_CA_BUNDLE=/root/pebble/ca-bundle.pem ${command}`], {
      timeoutMs: 120_000,
    });
    expect(await serial()).not.toBe(before);
    const modes = await sb.execOk([
      'stat',
      '-c',
      '%a %U',
      '/etc/stackdeck/ssl/app-blog/privkey.pem',
    ]);
    expect(modes.stdout.trim()).toBe('600 root');
    expect((await https('blog.test', '/root/pebble/root.pem')).status).toBe(200);
    // The panel takes the server's own renewal in on its next read-back: no drift, and the
    // certificate's dates are the renewed one's.
    const dated = (await panel.api('GET', one('sslcerts', certId))).json() as {
      not_after: string;
    };
    const sync = (await panel.api('GET', `${path('sslcerts')}?sync=true`)).json();
    expect(sync.data).toEqual([expect.objectContaining({ id: certId, drift: null })]);
    const taken = (await panel.api('GET', one('sslcerts', certId))).json() as { not_after: string };
    expect(taken.not_after > dated.not_after).toBe(true);
  }, 300_000);

  it('removes the certificate files and certbot lineage with the app', async () => {
    const res = await panel.api('DELETE', one('webstacks', blog.id));
    expect(res.statusCode, res.body).toBe(200);
    expect((await panel.api('GET', one('sslcerts', certId))).statusCode).toBe(404);
    for (const p of [
      '/etc/stackdeck/ssl/app-blog',
      '/var/lib/stackdeck/certbot/config/live/app-blog',
      '/var/lib/stackdeck/certbot/config/renewal/app-blog.conf',
    ])
      expect((await sb.exec(['test', '-e', p])).code, p).not.toBe(0);
  });
});
