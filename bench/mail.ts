/**
 * Mail (issue 25), on a sandbox server with the real agent, Postfix and Dovecot:
 * - delivery: SMTP accepted (from 127.0.0.2, "the internet") to the message visible over IMAP,
 *   one message after another, measured inside the sandbox by one python script (smtplib, then
 *   NOOP on an IMAP session until EXISTS grows);
 * - the webmail's first page of a 10,000-message inbox: the panel's op to the agent
 *   (`mail.imap.list`, IMAP as the master user) to the page's data, cold (Dovecot builds its
 *   index) and warm; the messages are written into the Maildir directly;
 * - 1,000 mailboxes on one domain through the API (`POST mail-user`, each hashed with argon2id
 *   off the event loop and put on the server in rounds), four at a time, with the panel's
 *   event-loop delay meanwhile.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile, startBenchServer } from './benchServer';

export interface MailBenchResult {
  deliveries: number;
  deliveryP50Ms: number;
  deliveryP99Ms: number;
  inbox: number;
  firstPageColdMs: number;
  firstPageWarmMs: number;
  mailboxes: number;
  mailboxesSeconds: number;
  /** The panel's event loop while they were made (argon2id runs on the native module's threads). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

const DOMAIN = 'shop.bench.example';

const DELIVERY_PY = (count: number, password: string) => `
import imaplib, smtplib, time, json
imap = imaplib.IMAP4('127.0.0.1', 143)
imap.login('alice@${DOMAIN}', ${JSON.stringify(password)})
def exists():
    typ, data = imap.status('INBOX', '(MESSAGES)')
    return int(data[0].split()[-1].rstrip(b')'))
times = []
smtp = smtplib.SMTP('127.0.0.1', 25, source_address=('127.0.0.2', 0))
for i in range(${count}):
    before = exists()
    smtp.sendmail('carol@far.example', ['alice@${DOMAIN}'], f'Subject: bench {i}\\r\\n\\r\\nhello {i}\\r\\n')
    t0 = time.monotonic()
    while exists() <= before:
        time.sleep(0.002)
    times.append((time.monotonic() - t0) * 1000)
smtp.quit()
print(json.dumps(times))
`;

const MAILDIR_PY = (count: number, dir: string) => `
import os, time
d = ${JSON.stringify(dir)}
os.makedirs(d + '/cur', exist_ok=True); os.makedirs(d + '/new', exist_ok=True); os.makedirs(d + '/tmp', exist_ok=True)
now = int(time.time())
for i in range(${count}):
    body = f'From: sender{i % 97}@far.example\\r\\nTo: bob@${DOMAIN}\\r\\nSubject: message {i}\\r\\nDate: Sat, 28 Nov 2026 10:00:00 +0000\\r\\nMessage-ID: <{i}@far.example>\\r\\n\\r\\nbody {i}\\r\\n'
    with open(f'{d}/cur/{now - ${count} + i}.{i}.bench:2,', 'w') as f:
        f.write(body)
`;

export async function mailBench(
  deliveries = 200,
  inbox = 10_000,
  mailboxes = 1000,
): Promise<MailBenchResult> {
  const bench = await startBenchServer(['ssh', 'nginx', 'php8.2-fpm', 'postfix', 'dovecot']);
  const { api, sandbox, app, serverId } = bench;
  const call = app.agents.call.bind(app.agents);
  try {
    await api('POST', bench.path('sysusers'), {
      user_name: 'bench',
      password: 'a long bench password 1',
    });
    const shop = await api('POST', bench.path('webstacks'), {
      name: 'shop',
      domains: [DOMAIN],
      sys_user: 'bench',
    });
    await api('POST', bench.path('mail'), {});
    const create = `${bench.path('mail-user')}?wsid=${String(shop.id)}`;
    const password = 'a long mailbox password 1';
    for (const local of ['alice', 'bob'])
      await api('POST', create, { local, domain: DOMAIN, password, quota_mb: 0 });

    // Delivery, one message after another.
    const out = await sandbox.execOk(['python3', '-c', DELIVERY_PY(deliveries, password)], {
      timeoutMs: 600_000,
    });
    const times = (JSON.parse(out.stdout) as number[]).sort((a, b) => a - b);

    // A 10,000-message inbox, then its first page as the webmail asks for it.
    const maildir = `/var/vmail/${DOMAIN}/bob/Maildir`;
    await sandbox.execOk(['python3', '-c', MAILDIR_PY(inbox, maildir)], { timeoutMs: 600_000 });
    await sandbox.execOk(['chown', '-R', 'vmail:vmail', `/var/vmail/${DOMAIN}/bob`]);
    const page = async () => {
      const start = performance.now();
      const got = await call(serverId, 'mail.imap.list', {
        address: `bob@${DOMAIN}`,
        folder: 'inbox',
        page: 1,
        per_page: 50,
        search: null,
      });
      if (got.total !== inbox || got.messages.length !== 50)
        throw new Error(`first page: ${got.total} messages, ${got.messages.length} listed`);
      return performance.now() - start;
    };
    const cold = await page();
    const warm: number[] = [];
    for (let i = 0; i < 20; i++) warm.push(await page());

    // 1,000 mailboxes through the API, four requests at a time.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < mailboxes) {
          const i = next++;
          await api('POST', create, { local: `box${i}`, domain: DOMAIN, password, quota_mb: 100 });
        }
      }),
    );
    const mailboxesSeconds = (performance.now() - started) / 1000;
    loop.disable();

    return {
      deliveries,
      deliveryP50Ms: percentile(times, 0.5),
      deliveryP99Ms: percentile(times, 0.99),
      inbox,
      firstPageColdMs: cold,
      firstPageWarmMs: percentile(
        warm.sort((a, b) => a - b),
        0.5,
      ),
      mailboxes,
      mailboxesSeconds,
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      loopDelayMaxMs: loop.max / 1e6,
    };
  } finally {
    await bench.close();
  }
}
