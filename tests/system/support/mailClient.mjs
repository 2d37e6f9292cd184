// Runs inside a mail test's sandbox (its network is the sandbox's own): IMAP through imapflow,
// DKIM through mailauth. One command per run, JSON in argv[2], JSON out on stdout.
import { ImapFlow } from 'imapflow';
import { authenticate } from 'mailauth';

const [command, json] = process.argv.slice(2);
const args = JSON.parse(json ?? '{}');

async function imap({ user, pass, authzid, port = 143, secure }) {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    // On 127.0.0.1 Dovecot counts the connection as secured; from elsewhere STARTTLS.
    doSTARTTLS: secure ? true : false,
    tls: { rejectUnauthorized: false },
    auth: authzid ? { user, pass, authzid, loginMethod: 'AUTH=PLAIN' } : { user, pass },
    logger: false,
  });
  try {
    await client.connect();
  } catch (error) {
    return { ok: false, error: String(error.responseText ?? error.message) };
  }
  const out = [];
  const lock = await client.getMailboxLock('INBOX');
  try {
    if (client.mailbox.exists > 0)
      for await (const m of client.fetch('1:*', { envelope: true, source: args.source === true })) {
        out.push({
          subject: m.envelope.subject,
          from: m.envelope.from?.[0]?.address,
          to: m.envelope.to?.map((a) => a.address),
          ...(args.source ? { source: m.source.toString('utf8') } : {}),
        });
      }
  } finally {
    lock.release();
  }
  await client.logout();
  return { ok: true, messages: out };
}

async function dkim({ raw, txt }) {
  const result = await authenticate(Buffer.from(raw), {
    ip: '127.0.0.1',
    helo: 'localhost',
    mta: 'localhost',
    sender: args.sender,
    resolver: async (name, rr) => {
      if (rr === 'TXT' && txt[name]) return [[txt[name]]];
      const e = new Error('not found');
      e.code = 'ENOTFOUND';
      throw e;
    },
  });
  return {
    results: result.dkim.results.map((r) => ({ domain: r.signingDomain, result: r.status.result })),
  };
}

const result = command === 'imap' ? await imap(args) : await dkim(args);
process.stdout.write(JSON.stringify(result));
