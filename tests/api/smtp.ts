import net from 'node:net';

/** One message as the SMTP listener received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface SmtpListener {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A small real SMTP server on 127.0.0.1 (RFC 5321 subset: EHLO/HELO, MAIL, RCPT, DATA, RSET,
 * NOOP, QUIT), enough for nodemailer to deliver to it. `rejectRecipients` answers 550 to every
 * RCPT, as a server refusing the mail would.
 */
export async function startSmtp(
  options: { rejectRecipients?: boolean; port?: number } = {},
): Promise<SmtpListener> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    reply('220 smtp.test ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(mail);
          mail = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-smtp.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'HELO') reply('250 smtp.test');
        else if (verb === 'MAIL') {
          mail.from = /<(.*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          if (options.rejectRecipients) reply('550 5.1.1 mailbox unavailable');
          else {
            mail.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          mail = { from: '', to: [], data: '' };
          reply('250 ok');
        } else if (verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 5.5.1 command not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a mail client shows of a received message: its subject and its decoded text. */
export function readMail(mail: ReceivedMail): { to: string[]; subject: string; text: string } {
  const split = mail.data.indexOf('\r\n\r\n');
  const head = mail.data.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = mail.data.slice(split + 4);
  const header = (name: string) =>
    new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  // RFC 2047 encoded words (=?UTF-8?Q?...?= or ?B?).
  const subject = header('Subject').replace(
    /=\?[^?]+\?([QqBb])\?([^?]*)\?=\s*/g,
    (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuoted(text.replace(/_/g, ' ')),
  );
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuoted(body.replace(/=\r\n/g, ''))
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to: mail.to, subject, text: text.replace(/\r\n/g, '\n') };
}

function decodeQuoted(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
