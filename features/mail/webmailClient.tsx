/**
 * The webmail pages' calls and the mailbox they show. The spec's mailbox sidebar links carry no
 * id, so the open mailbox is kept in the shell's store (cleared at sign-out): the pages read it,
 * and a page without one offers the account's mailboxes.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useStore } from 'ra-core';
import { useStackdeckData } from '../../src/hooks';
import { sessions } from '../../src/providers';
import type { SpecialFolder } from './webmailOps';
import type { MailFolders, MailMessage, MessageList } from './webmailResource';

export interface OpenMailbox {
  sid: number;
  mid: number;
  address: string;
}

export const useOpenMailbox = () => useStore<OpenMailbox | null>('mail.webmail.mailbox', null);

/** The mailbox sidebar's pages and the folder each shows (compose has its own page). */
export const FOLDER_PAGES: Record<string, { folder: SpecialFolder; title: string }> = {
  '/check-mail': { folder: 'inbox', title: 'Inbox' },
  '/drafts': { folder: 'drafts', title: 'Drafts' },
  '/sent-mail': { folder: 'sent', title: 'Sent' },
  '/spam': { folder: 'spam', title: 'Spam' },
  '/trash': { folder: 'trash', title: 'Trash' },
  '/archive': { folder: 'archive', title: 'Archive' },
};

/** Calls one webmail action on the open mailbox. */
export function useWebmail(mailbox: OpenMailbox) {
  const dp = useStackdeckData();
  const params = { sid: mailbox.sid, mid: mailbox.mid };
  return <T,>(
    action: string,
    call: { query?: object; body?: unknown; signal?: AbortSignal } = {},
  ) =>
    dp.action<T>('mail-webmail', action, {
      params,
      ...(call.query && { query: call.query as Record<string, unknown> }),
      ...(call.body !== undefined && { body: call.body }),
      ...(call.signal && { signal: call.signal }),
    });
}

const key = (mailbox: OpenMailbox, ...rest: unknown[]) => ['mail-webmail', mailbox.mid, ...rest];

export function useFolders(mailbox: OpenMailbox) {
  const call = useWebmail(mailbox);
  return useQuery({
    queryKey: key(mailbox, 'folders'),
    queryFn: ({ signal }) => call<MailFolders>('folders', { signal }),
    staleTime: 30_000,
  });
}

export function useMessages(
  mailbox: OpenMailbox,
  query: { folder: string; page: number; per_page: number; search: string },
) {
  const call = useWebmail(mailbox);
  return useQuery({
    queryKey: key(mailbox, 'list', query),
    queryFn: ({ signal }) => call<MessageList>('list', { query, signal }),
    placeholderData: (previous) => previous,
  });
}

export function useMessage(mailbox: OpenMailbox, folder: string, uid: number | null) {
  const call = useWebmail(mailbox);
  return useQuery({
    queryKey: key(mailbox, 'message', folder, uid),
    queryFn: ({ signal }) => call<MailMessage>('message', { query: { folder, uid }, signal }),
    enabled: uid !== null,
  });
}

/** After a change: the lists and counts of this mailbox are read again. */
export function useRefresh(mailbox: OpenMailbox) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['mail-webmail', mailbox.mid] });
}

/** An attachment's bytes, fetched with the session's token (a plain link would carry none). */
async function attachmentBlob(
  mailbox: OpenMailbox,
  folder: string,
  uid: number,
  part: string,
): Promise<Blob> {
  const session = sessions.get();
  if (!session) throw new Error('Sign in again to download');
  const query = new URLSearchParams({ folder, uid: String(uid), part });
  const res = await fetch(
    `/api/v1/webmail/mail-user/${mailbox.mid}/attachment/servers/${mailbox.sid}/users/${session.userId}?${query}`,
    { headers: { authorization: `Bearer ${session.token}` } },
  );
  if (!res.ok) throw new Error(`The attachment could not be fetched (HTTP ${res.status})`);
  return res.blob();
}

/** Saves an attachment. */
export async function downloadAttachment(
  mailbox: OpenMailbox,
  folder: string,
  uid: number,
  attachment: { part: string; filename: string },
): Promise<void> {
  const blob = await attachmentBlob(mailbox, folder, uid, attachment.part);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = attachment.filename || 'attachment';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A remote image of the message through the panel's image proxy, as a data: URL the message's
 * frame may show (its CSP takes data: images only).
 */
export async function remoteImage(
  mailbox: OpenMailbox,
  folder: string,
  uid: number,
  url: string,
): Promise<string> {
  const session = sessions.get();
  if (!session) throw new Error('Sign in again to load images');
  const query = new URLSearchParams({ folder, uid: String(uid), url });
  const res = await fetch(
    `/api/v1/webmail/mail-user/${mailbox.mid}/image/servers/${mailbox.sid}/users/${session.userId}?${query}`,
    { headers: { authorization: `Bearer ${session.token}` } },
  );
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

/** A received message's attachment as compose sends it again (a forward, a reopened draft). */
export async function attachmentAgain(
  mailbox: OpenMailbox,
  folder: string,
  uid: number,
  attachment: { part: string; filename: string; content_type: string },
) {
  const blob = await attachmentBlob(mailbox, folder, uid, attachment.part);
  const name = attachment.filename || 'attachment';
  return attachmentOf(new File([blob], name, { type: attachment.content_type }));
}

/** A file chosen in compose, as the send call takes it (base64 of its bytes). */
export async function attachmentOf(file: File) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return {
    filename: file.name.replace(/[\r\n\0/\\]/g, '_'),
    content_type: /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i.test(file.type)
      ? file.type
      : 'application/octet-stream',
    content: btoa(binary),
  };
}
