/**
 * The webmail ops' implementations (webmailOps.ts): each runs on the mailbox's kept IMAP
 * session (agentImapPool.ts) as Dovecot's master user on loopback.
 */
import type { ImapFlow } from 'imapflow';
import { OpError } from '../../agent/lib/opError';
import type { AgentFeature } from '../../agent/ops/types';
import { ImapPool } from './agentImapPool';
import { masterSecret } from './agentMaster';
import {
  deleteMessages,
  flagMessages,
  listFolders,
  listPage,
  moveMessages,
  readAttachment,
  readMessage,
} from './agentWebmail';
import { saveDraft, sendMessage } from './agentWebmailSend';
import type { webmailOps } from './webmailOps';

const pool = new ImapPool({ host: '127.0.0.1', port: 143, secret: masterSecret });
const SUBMISSION = { host: '127.0.0.1', port: 587, secret: masterSecret };

/** Dovecot refuses the master login for an address it has no mailbox for. */
async function onMailbox<T>(address: string, fn: (client: ImapFlow) => Promise<T>): Promise<T> {
  try {
    return await pool.with(address, fn);
  } catch (error) {
    if ((error as { authenticationFailed?: boolean }).authenticationFailed)
      throw new OpError('not_found', `There is no mailbox ${address} on this server`, 'address');
    if ((error as { code?: string }).code === 'ECONNREFUSED')
      throw new OpError('invalid', 'Mail is not running on this server (IMAP does not answer)');
    throw error;
  }
}

export const webmailImpl: AgentFeature<typeof webmailOps>['ops'] = {
  'mail.imap.folders': ({ address }) => onMailbox(address, (c) => listFolders(c)),
  'mail.imap.list': ({ address, ...a }) => onMailbox(address, (c) => listPage(c, a)),
  'mail.imap.message': ({ address, ...a }) => onMailbox(address, (c) => readMessage(c, a)),
  'mail.imap.attachment': ({ address, ...a }) => onMailbox(address, (c) => readAttachment(c, a)),
  'mail.imap.move': ({ address, ...a }) => onMailbox(address, (c) => moveMessages(c, a)),
  'mail.imap.flag': ({ address, ...a }) => onMailbox(address, (c) => flagMessages(c, a)),
  'mail.imap.delete': ({ address, ...a }) => onMailbox(address, (c) => deleteMessages(c, a)),
  'mail.imap.draft': ({ address, ...a }) => onMailbox(address, (c) => saveDraft(c, address, a)),
  'mail.smtp.send': ({ address, ...a }) =>
    onMailbox(address, (c) => sendMessage(c, SUBMISSION, address, a)),
};

/** Mail stopped or removed: no session stays open on it. */
export const closeWebmailSessions = () => pool.closeAll();
