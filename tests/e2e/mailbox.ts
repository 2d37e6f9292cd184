/**
 * The e2e run's mailbox: a real SMTP server the panel delivers to (SMTP_URL), and a small HTTP
 * API to read what arrived, as a user reads their mail. The outbox masks every code and link,
 * so tests read them here. Ports: MAILBOX_HTTP_PORT and MAILBOX_SMTP_PORT (playwright.config.ts).
 */
import http from 'node:http';
import { readMail, startSmtp } from '../api/smtp';

const httpPort = Number(process.env.MAILBOX_HTTP_PORT);
const smtpPort = Number(process.env.MAILBOX_SMTP_PORT);

const smtp = await startSmtp({ port: smtpPort });
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://mailbox');
  if (url.pathname === '/healthz') {
    res.end('ok');
    return;
  }
  if (url.pathname === '/mails') {
    const to = (url.searchParams.get('to') ?? '').toLowerCase();
    const mails = smtp.received
      .map(readMail)
      .filter((m) => m.to.some((a) => a.toLowerCase() === to))
      .map(({ subject, text }) => ({ subject, text }));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(mails));
    return;
  }
  res.statusCode = 404;
  res.end();
});
server.listen(httpPort, '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    server.close();
    void smtp.close().then(() => process.exit(0));
  });
