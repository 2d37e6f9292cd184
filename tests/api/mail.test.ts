import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, buildTestApp } from './helpers';
import { type SmtpListener, readMail, startSmtp } from './smtp';

/**
 * Every mail lands in the outbox, its codes and links masked; with SMTP_URL set, nodemailer
 * delivers the real text.
 */
const outboxRow = (t: TestApp, to: string) =>
  t.app.db
    .selectFrom('outbox')
    .selectAll()
    .where('to_addr', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

async function registerAt(t: TestApp, email: string) {
  const res = await t.call('POST', '/api/v1/users', {
    body: { email, password: 'a long enough password', user_name: 'Mailed' },
  });
  expect(res.statusCode).toBe(201);
  await t.app.services.mailer.flush();
}

describe('on the embedded default (no SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ smtpUrl: null });
  });
  afterAll(() => t.close());

  it('the mail waits in the outbox, its code masked', async () => {
    await registerAt(t, 'outbox-only@example.com');
    const row = await outboxRow(t, 'outbox-only@example.com');
    expect(row).toMatchObject({
      subject: 'Confirm your Stackdeck account',
      sent_at: null,
      error: null,
    });
    expect(row.text_body).toContain('Your confirmation code is ••••••');
    expect(row.text_body).toContain('Enter it at ••••••');
    expect(row.text_body).not.toMatch(/\d{6}|uuid=/);
  });
});

describe('with SMTP_URL', () => {
  let smtp: SmtpListener;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({ smtpUrl: smtp.url, mailFrom: 'Stackdeck <panel@stackdeck.test>' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('nodemailer delivers to the SMTP server and the outbox row gets sent_at', async () => {
    await registerAt(t, 'smtp-user@example.com');
    const row = await outboxRow(t, 'smtp-user@example.com');
    expect(row.error).toBeNull();
    expect(Date.parse(row.sent_at!)).not.toBeNaN();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.from).toBe('panel@stackdeck.test');
    expect(mail!.to).toEqual(['smtp-user@example.com']);
    expect(mail!.data).toMatch(/^Subject: Confirm your Stackdeck account$/m);
    expect(mail!.data).toMatch(/^To: smtp-user@example.com$/m);
    // The recipient gets the code and the link; the outbox row only the mask.
    const { text } = readMail(mail!);
    const code = /Your confirmation code is (\d{6})/.exec(text)![1]!;
    expect(text).toMatch(/Enter it at http:\/\/panel\.test\/confirm-account\?uuid=[0-9a-f-]{36}\n/);
    expect(row.text_body).toContain('Your confirmation code is ••••••');
    expect(row.text_body).not.toContain(code);
  });

  it("a mail's secrets go out over SMTP and are masked in the outbox, subject included", async () => {
    await t.app.services.mailer.send({
      to: 'secret@example.com',
      subject: 'Code 424242 inside',
      text: 'Your code is 424242, link http://panel.test/x?code=424242-long\n',
      secrets: ['424242', 'http://panel.test/x?code=424242-long'],
    });
    await t.app.services.mailer.flush();
    const row = await outboxRow(t, 'secret@example.com');
    expect(row.subject).toBe('Code •••••• inside');
    expect(row.text_body).toBe('Your code is ••••••, link ••••••\n');
    const got = readMail(smtp.received.at(-1)!);
    expect(got.subject).toBe('Code 424242 inside');
    expect(got.text.trimEnd()).toBe(
      'Your code is 424242, link http://panel.test/x?code=424242-long',
    );
  });

  it('a mail is written to the outbox before it is delivered, and close waits for delivery', async () => {
    const id = await t.app.services.mailer.send({
      to: 'late@example.com',
      subject: 'Queued',
      text: 'hello',
    });
    const queued = await outboxRow(t, 'late@example.com');
    expect(queued.id).toBe(id);
    await t.app.services.mailer.flush();
    expect((await outboxRow(t, 'late@example.com')).sent_at).not.toBeNull();
  });
});

describe('when SMTP delivery fails', () => {
  it('a server refusing the recipient sets error, not sent_at', async () => {
    const smtp = await startSmtp({ rejectRecipients: true });
    const t = await buildTestApp({ smtpUrl: smtp.url });
    try {
      await registerAt(t, 'refused@example.com');
      const row = await outboxRow(t, 'refused@example.com');
      expect(row.sent_at).toBeNull();
      expect(row.error).toMatch(/550/);
      expect(smtp.received).toHaveLength(0);
      // Sign-up itself did not fail; the outbox still shows no code (an admin confirms instead).
      expect(row.text_body).toContain('Your confirmation code is ••••••');
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it('an unreachable server sets error', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const t = await buildTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      await registerAt(t, 'unreachable@example.com');
      const row = await outboxRow(t, 'unreachable@example.com');
      expect(row.sent_at).toBeNull();
      expect(row.error).toMatch(/ECONNREFUSED/);
    } finally {
      await t.close();
    }
  });
});
