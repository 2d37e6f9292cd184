import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailRecordCheck, checkMailDns } from '../../features/mail/dnsCheck';
import { type MailDnsInput, mailDnsValues, quotedTxt } from '../../features/mail/dnsValues';
import { type PdnsServer, startPdns } from '../dns/pdns';

/**
 * The checker against a real PowerDNS (pdns_server, sqlite backend) on loopback, asked through
 * node's own Resolver pointed at it: one server for the file, one zone per situation.
 */
let pdns: PdnsServer;
let silent: dgram.Socket;
let silentPort = 0;
// A resolver that fails every question (what a recursive resolver says when the domain's own
// servers are broken): a stand-in for the outside world, answering SERVFAIL.
let failing: dgram.Socket;
let failingPort = 0;

const key = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
const [P, OTHER] = [key(), key()];
const input = (domain: string, ipv4 = '192.0.2.10'): MailDnsInput => ({
  domain,
  dkimPublicKey: P,
  ipv4,
  mailHost: 'srv1.example.net',
});

type Rr = [name: string, type: string, ...contents: string[]];

async function zone(name: string, rrsets: Rr[]) {
  const res = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones`, {
    method: 'POST',
    headers: { 'X-API-Key': pdns.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `${name}.`,
      kind: 'Native',
      nameservers: [`ns1.${name}.`],
      rrsets: rrsets.map(([n, type, ...contents]) => ({
        name: n === '@' ? `${name}.` : `${n}.${name}.`,
        type,
        ttl: 60,
        records: contents.map((content) => ({ content, disabled: false })),
      })),
    }),
  });
  expect(res.status, await res.text()).toBe(201);
}

const txt = (t: string) => quotedTxt(t);

beforeAll(async () => {
  pdns = await startPdns();
  // A DNS "server" that never answers: the time-out case.
  silent = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  silentPort = silent.address().port;
  failing = dgram.createSocket('udp4');
  failing.on('message', (query, from) => {
    // The query echoed with QR set, RD kept, RA set, RCODE 2 (SERVFAIL), no answers.
    const answer = Buffer.from(query);
    answer[2] = 0x80 | (query[2]! & 0x01);
    answer[3] = 0x82;
    answer.writeUInt16BE(0, 6);
    answer.writeUInt16BE(0, 8);
    answer.writeUInt16BE(0, 10);
    failing.send(answer.subarray(0, 12 + questionLength(query)), from.port, from.address);
  });
  await new Promise<void>((resolve) => failing.bind(0, '127.0.0.1', resolve));
  failingPort = failing.address().port;
  const good = mailDnsValues(input('good.test'));
  await Promise.all([
    zone('good.test', [
      ['@', 'TXT', txt('google-site-verification=x'), txt('v=spf1 mx a ip4:192.0.2.10 -all')],
      ['mail._domainkey', 'TXT', txt(good.dkim.content)],
      ['_dmarc', 'TXT', txt(good.dmarc.content)],
      ['@', 'MX', '10 mail.good.test.'],
      ['mail', 'A', '192.0.2.10'],
    ]),
    zone('empty.test', []),
    zone('bad.test', [
      ['@', 'TXT', txt('v=spf1 include:_spf.google.com ~all')],
      ['mail._domainkey', 'TXT', txt(`v=DKIM1; k=rsa; p=${OTHER}`)],
      ['_dmarc', 'TXT', txt('v=DMARC1; p=none; rua=mailto:x@bad.test')],
      ['@', 'MX', '1 aspmx.l.google.com.', '5 alt1.aspmx.l.google.com.'],
      ['mail', 'A', '198.51.100.7'],
    ]),
    zone('twice.test', [
      ['@', 'TXT', txt('v=spf1 ip4:192.0.2.10 -all'), txt('v=spf1 include:mailgun.org ~all')],
      ['@', 'MX', '10 mail.twice.test.', '20 backup.example.net.'],
    ]),
    zone('2.0.192.in-addr.arpa', [
      ['10', 'PTR', 'srv1.example.net.'],
      ['20', 'PTR', 'vps-20.provider.example.'],
    ]),
  ]);
}, 30_000);
afterAll(async () => {
  silent?.close();
  failing?.close();
  await pdns?.stop();
});

/** The question section's length: the name's labels, its end, type and class. */
function questionLength(query: Buffer): number {
  let at = 12;
  while (query[at]! !== 0) at += query[at]! + 1;
  return at + 1 + 4 - 12;
}

function resolverAt(port: number, timeout = 2000) {
  const r = new Resolver({ timeout, tries: 1 });
  r.setServers([`127.0.0.1:${port}`]);
  return r;
}

async function check(domain: string, ipv4?: string) {
  const result = await checkMailDns(mailDnsValues(input(domain, ipv4)), resolverAt(pdns.dnsPort));
  const by = Object.fromEntries(result.records.map((r) => [r.kind, r])) as Record<
    MailRecordCheck['kind'],
    MailRecordCheck
  >;
  return { ...result, by };
}

describe('the DNS check of a mail domain', () => {
  it('all published: every record ok, the DKIM key read back whole from split strings', async () => {
    const { ok, by, records } = await check('good.test');
    expect(records.map((r) => [r.kind, r.status])).toEqual([
      ['dkim', 'ok'],
      ['spf', 'ok'],
      ['dmarc', 'ok'],
      ['mx', 'ok'],
      ['mail-a', 'ok'],
      ['ptr', 'ok'],
    ]);
    expect(ok).toBe(true);
    expect(by.dkim.found[0]).toContain(P);
    expect(by.spf.found).toEqual(['v=spf1 mx a ip4:192.0.2.10 -all']);
    expect(by.ptr.message).toBe('192.0.2.10 points back at srv1.example.net.');
  });

  it('nothing published: missing, not an error; no PTR is a warning', async () => {
    const { ok, records } = await check('empty.test', '192.0.2.30');
    expect(records.map((r) => [r.kind, r.status])).toEqual([
      ['dkim', 'missing'],
      ['spf', 'missing'],
      ['dmarc', 'missing'],
      ['mx', 'missing'],
      ['mail-a', 'missing'],
      ['ptr', 'warning'],
    ]);
    expect(ok).toBe(false);
    expect(records[0]!.message).toBe(
      'No DKIM record at mail._domainkey.empty.test: receivers cannot verify the signatures.',
    );
    expect(records[5]!.message).toMatch(/^192\.0\.2\.30 has no PTR name\. .*srv1\.example\.net/);
  });

  it('other values published: different, saying what was found', async () => {
    const { by } = await check('bad.test', '192.0.2.20');
    expect(by.dkim.status).toBe('different');
    expect(by.dkim.message).toMatch(
      new RegExp(
        `^The published DKIM key \\(p=…${OTHER.slice(-12).replace(/[+/]/g, '\\$&')}\\) is not this server's`,
      ),
    );
    expect(by.spf).toMatchObject({
      status: 'different',
      found: ['v=spf1 include:_spf.google.com ~all'],
      message: "The SPF record does not list this server's address (ip4:192.0.2.20).",
    });
    expect(by.dmarc.status).toBe('ok'); // any valid policy is the user's choice
    expect(by.dmarc.message).toMatch(/p=none: reports only/);
    expect(by.mx).toMatchObject({
      status: 'different',
      found: ['1 aspmx.l.google.com', '5 alt1.aspmx.l.google.com'],
      message:
        'MX points at aspmx.l.google.com, alt1.aspmx.l.google.com, not at mail.bad.test: mail goes elsewhere.',
    });
    expect(by['mail-a'].message).toBe(
      "mail.bad.test is 198.51.100.7, not this server's 192.0.2.20.",
    );
    expect(by.ptr.status).toBe('warning');
    expect(by.ptr.message).toMatch(/points back at vps-20\.provider\.example, not srv1/);
  });

  it('two SPF records: an error; an MX also pointing elsewhere: different', async () => {
    const { by } = await check('twice.test');
    expect(by.spf.status).toBe('error');
    expect(by.spf.found).toHaveLength(2);
    expect(by.spf.message).toMatch(/^2 SPF records: receivers treat this as an error/);
    expect(by.mx.status).toBe('different');
    expect(by.mx.message).toMatch(/also points at backup\.example\.net/);
  });

  it('no answer in time: "could not check", never "missing"', async () => {
    const values = mailDnsValues(input('good.test'));
    const result = await checkMailDns(values, resolverAt(silentPort, 300));
    expect(result.records.map((r) => r.status)).toEqual(Array(6).fill('unchecked'));
    expect(result.records[0]!.message).toBe(
      'Could not check: the DNS server did not answer in time. Try again later.',
    );
    expect(result.ok).toBe(false);
  });

  it('SERVFAIL: "could not check", never "missing"', async () => {
    const values = mailDnsValues(input('good.test'));
    const result = await checkMailDns(values, resolverAt(failingPort));
    expect(result.records.map((r) => r.status)).toEqual(Array(6).fill('unchecked'));
    expect(result.records[1]!.message).toBe(
      'Could not check: the DNS server answered SERVFAIL (it could not resolve the name). Try again later.',
    );
  });

  it('a server that refuses the question (a zone it does not serve): "could not check"', async () => {
    const { records } = await check('elsewhere.test', '198.51.100.9');
    expect(new Set(records.map((r) => r.status))).toEqual(new Set(['unchecked']));
    expect(records[0]!.message).toMatch(/^Could not check: the DNS server refused/);
  });
});
