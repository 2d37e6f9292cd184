/**
 * Composing for the webmail: drafts appended to Drafts, and sending through the server's own
 * submission port (587) as the mailbox, by the master user's login (`address*stackdeck`), so
 * Postfix's sender check, its limits and DKIM signing apply as to any mail client; then a copy
 * goes to Sent. Research mail.md s.6 (tested there: sasl_username is the mailbox).
 */
import type { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { MASTER_USER } from './agentConfigs';
import { folderPath } from './agentWebmail';
import type { OutgoingMessage } from './webmailOps';

export interface SubmissionTarget {
  host: string;
  port: number;
  secret: () => Promise<string>;
}

/**
 * The message as it is sent and as it is filed: one compiled message built twice, so both have
 * the same Message-ID and Date, and only the filed copy keeps its Bcc header.
 */
async function compose(address: string, m: OutgoingMessage) {
  const mail = new MailComposer({
    from: address,
    to: m.to,
    cc: m.cc,
    bcc: m.bcc,
    subject: m.subject,
    text: m.text,
    ...(m.in_reply_to ? { inReplyTo: m.in_reply_to } : {}),
    ...(m.references.length ? { references: m.references } : {}),
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.content_type,
      content: Buffer.from(a.content, 'base64'),
    })),
  }).compile();
  const messageId = mail.messageId();
  const raw = await mail.build();
  mail.keepBcc = true;
  const filed = await mail.build();
  return { raw, filed, messageId };
}

export async function saveDraft(
  client: ImapFlow,
  address: string,
  a: { message: OutgoingMessage; replaces: number | null },
) {
  const drafts = await folderPath(client, 'drafts');
  const { filed } = await compose(address, a.message);
  const saved = await client.append(drafts, filed, ['\\Draft', '\\Seen']);
  if (a.replaces) await dropDraft(client, drafts, a.replaces);
  return { uid: saved ? (saved.uid ?? null) : null };
}

async function dropDraft(client: ImapFlow, drafts: string, uid: number) {
  const lock = await client.getMailboxLock(drafts);
  try {
    await client.messageDelete(String(uid), { uid: true });
  } finally {
    lock.release();
  }
}

export async function sendMessage(
  client: ImapFlow,
  target: SubmissionTarget,
  address: string,
  a: { message: OutgoingMessage; draft: number | null },
) {
  const m = a.message;
  const recipients = [...m.to, ...m.cc, ...m.bcc];
  const { raw, filed, messageId } = await compose(address, m);
  const transport = nodemailer.createTransport({
    host: target.host,
    port: target.port,
    secure: false,
    requireTLS: true,
    // Loopback to this server's own Postfix: its certificate names the public host, not 127.0.0.1.
    tls: { rejectUnauthorized: false },
    auth: { user: `${address}*${MASTER_USER}`, pass: await target.secret() },
  });
  try {
    const info = await transport.sendMail({ envelope: { from: address, to: recipients }, raw });
    const sent = await folderPath(client, 'sent');
    await client.append(sent, filed, ['\\Seen']);
    if (a.draft) await dropDraft(client, await folderPath(client, 'drafts'), a.draft);
    return { message_id: messageId, accepted: info.accepted.map(String) };
  } finally {
    transport.close();
  }
}
