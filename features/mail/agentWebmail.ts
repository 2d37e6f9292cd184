/**
 * The webmail's IMAP ops (webmailOps.ts) on the pool's master-user sessions: folders, pages of
 * a folder, one message, attachments, move, flags, delete, drafts.
 */
import type { FetchMessageObject, ImapFlow, MessageAddressObject } from 'imapflow';
import { simpleParser } from 'mailparser';
import type { z } from 'zod';
import { OpError } from '../../agent/lib/opError';
import {
  type MessageSummary,
  SPECIAL_FOLDERS,
  type SpecialFolder,
  type folderName,
} from './webmailOps';

type Folder = z.output<typeof folderName>;

/** RFC 6154 flags of the spec's folders (Dovecot's namespace of agentConfigs.ts declares them). */
const SPECIAL_USE: Record<SpecialFolder, string> = {
  inbox: '\\Inbox',
  drafts: '\\Drafts',
  sent: '\\Sent',
  spam: '\\Junk',
  trash: '\\Trash',
  archive: '\\Archive',
};
const specialOf = (use: string | undefined): SpecialFolder | null =>
  SPECIAL_FOLDERS.find((s) => SPECIAL_USE[s] === use) ?? null;

const MAX_ATTACHMENT = 35 * 1024 * 1024;

/** A folder's path on the server: a special one looked up by its flag. */
export async function folderPath(client: ImapFlow, folder: Folder): Promise<string> {
  if (folder === 'inbox') return 'INBOX';
  const list = await client.list();
  if ((SPECIAL_FOLDERS as readonly string[]).includes(folder)) {
    const found = list.find((f) => f.specialUse === SPECIAL_USE[folder as SpecialFolder]);
    if (found) return found.path;
    throw new OpError('not_found', `This mailbox has no ${folder} folder`, 'folder');
  }
  if (!list.some((f) => f.path === folder))
    throw new OpError('not_found', `There is no folder ${folder}`, 'folder');
  return folder;
}

const people = (list: MessageAddressObject[] | undefined) =>
  (list ?? []).map((p) => ({ name: p.name ?? '', address: p.address ?? '' }));

type Structure = NonNullable<FetchMessageObject['bodyStructure']>;

/** The parts a reader would call attachments: marked so, or named files that are not the text. */
export function attachmentsOf(node: Structure | undefined): {
  part: string;
  filename: string;
  content_type: string;
  size: number;
}[] {
  if (!node) return [];
  if (node.childNodes?.length) return node.childNodes.flatMap((c) => attachmentsOf(c));
  const filename = node.dispositionParameters?.filename ?? node.parameters?.name;
  const attached = node.disposition === 'attachment' || (filename && node.disposition !== 'inline');
  if (!attached || !node.part) return [];
  return [
    {
      part: node.part,
      filename: filename ?? `part-${node.part}`,
      content_type: node.type,
      size: node.size ?? 0,
    },
  ];
}

export function summaryOf(m: FetchMessageObject): MessageSummary {
  const date = m.envelope?.date;
  return {
    uid: m.uid,
    subject: m.envelope?.subject ?? '',
    from: people(m.envelope?.from),
    to: people(m.envelope?.to),
    date: date ? new Date(date).toISOString() : null,
    size: m.size ?? 0,
    seen: m.flags?.has('\\Seen') ?? false,
    flagged: m.flags?.has('\\Flagged') ?? false,
    answered: m.flags?.has('\\Answered') ?? false,
    has_attachments: attachmentsOf(m.bodyStructure).length > 0,
  };
}

const SUMMARY = { uid: true, envelope: true, flags: true, bodyStructure: true, size: true };

/** Runs fn with the folder selected (read-only unless it changes something). */
async function inFolder<T>(
  client: ImapFlow,
  folder: Folder,
  fn: (path: string) => Promise<T>,
  readOnly = false,
): Promise<T> {
  const path = await folderPath(client, folder);
  const lock = await client.getMailboxLock(path, { readOnly });
  try {
    return await fn(path);
  } finally {
    lock.release();
  }
}

export async function listFolders(client: ImapFlow) {
  const list = await client.list({ statusQuery: { messages: true, unseen: true } });
  const quota = await client.getQuota('INBOX').catch(() => false as const);
  return {
    folders: list
      .filter((f) => !f.flags.has('\\Noselect'))
      .map((f) => ({
        path: f.path,
        name: f.path === 'INBOX' ? 'Inbox' : f.name,
        special: f.path === 'INBOX' ? ('inbox' as const) : specialOf(f.specialUse),
        messages: f.status?.messages ?? 0,
        unseen: f.status?.unseen ?? 0,
      })),
    quota:
      quota && quota.storage?.usage !== undefined && quota.storage.limit !== undefined
        ? {
            used_kib: Math.round(quota.storage.usage / 1024),
            limit_kib: Math.round(quota.storage.limit / 1024),
          }
        : null,
  };
}

/**
 * A page, newest first. Without a search the page is a range of sequence numbers, so the first
 * page of a 10,000-message folder fetches 50 envelopes, not 10,000.
 */
export async function listPage(
  client: ImapFlow,
  a: { folder: Folder; page: number; per_page: number; search: string | null },
) {
  return inFolder(
    client,
    a.folder,
    async () => {
      const skip = (a.page - 1) * a.per_page;
      let total: number;
      let fetched: FetchMessageObject[] = [];
      if (a.search) {
        const q = a.search;
        const found = await client.search(
          { or: [{ from: q }, { subject: q }, { body: q }] },
          { uid: true },
        );
        const uids = (found || []).sort((x, y) => y - x);
        total = uids.length;
        const page = uids.slice(skip, skip + a.per_page);
        if (page.length) fetched = await client.fetchAll(page.join(','), SUMMARY, { uid: true });
      } else {
        total = client.mailbox ? client.mailbox.exists : 0;
        const end = total - skip;
        if (end >= 1)
          fetched = await client.fetchAll(`${Math.max(1, end - a.per_page + 1)}:${end}`, SUMMARY);
      }
      const messages = fetched.sort((x, y) => y.seq - x.seq || y.uid - x.uid).map(summaryOf);
      return { total, messages };
    },
    true,
  );
}

export async function readMessage(client: ImapFlow, a: { folder: Folder; uid: number }) {
  return inFolder(client, a.folder, async () => {
    const m = await client.fetchOne(String(a.uid), { ...SUMMARY, source: true }, { uid: true });
    if (!m || !m.source) throw new OpError('not_found', 'The message is not there any more');
    const parsed = await simpleParser(m.source, { skipImageLinks: true, skipTextToHtml: true });
    if (!m.flags?.has('\\Seen')) {
      await client.messageFlagsAdd(String(a.uid), ['\\Seen'], { uid: true });
      m.flags?.add('\\Seen');
    }
    const addresses = (v: typeof parsed.cc) =>
      (Array.isArray(v) ? v : v ? [v] : []).flatMap((g) =>
        g.value.map((p) => ({ name: p.name ?? '', address: p.address ?? '' })),
      );
    const refs = parsed.references;
    return {
      ...summaryOf(m),
      cc: addresses(parsed.cc),
      reply_to: addresses(parsed.replyTo),
      message_id: parsed.messageId ?? null,
      references: Array.isArray(refs) ? refs : refs ? [refs] : [],
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : null,
      attachments: attachmentsOf(m.bodyStructure),
    };
  });
}

export async function readAttachment(
  client: ImapFlow,
  a: { folder: Folder; uid: number; part: string },
) {
  return inFolder(
    client,
    a.folder,
    async () => {
      const got = await client.download(String(a.uid), a.part, {
        uid: true,
        maxBytes: MAX_ATTACHMENT + 1,
      });
      if (!got?.content) throw new OpError('not_found', 'The attachment is not there');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of got.content as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_ATTACHMENT)
          throw new OpError(
            'refused',
            'The attachment is larger than 35 MB: open it in a mail program',
          );
        chunks.push(chunk);
      }
      return {
        filename: got.meta?.filename ?? `part-${a.part}`,
        content_type: got.meta?.contentType ?? 'application/octet-stream',
        content: Buffer.concat(chunks).toString('base64'),
      };
    },
    true,
  );
}

export async function moveMessages(
  client: ImapFlow,
  a: { folder: Folder; uids: number[]; to: Folder },
) {
  const to = await folderPath(client, a.to);
  return inFolder(client, a.folder, async (from) => {
    if (from === to) return { moved: 0 };
    const done = await client.messageMove(a.uids.join(','), to, { uid: true });
    return { moved: done ? (done.uidMap?.size ?? a.uids.length) : 0 };
  });
}

export async function flagMessages(
  client: ImapFlow,
  a: { folder: Folder; uids: number[]; seen?: boolean; flagged?: boolean },
) {
  return inFolder(client, a.folder, async () => {
    const range = a.uids.join(',');
    let changed = 0;
    for (const [flag, on] of [
      ['\\Seen', a.seen],
      ['\\Flagged', a.flagged],
    ] as const) {
      if (on === undefined) continue;
      const ok = on
        ? await client.messageFlagsAdd(range, [flag], { uid: true })
        : await client.messageFlagsRemove(range, [flag], { uid: true });
      if (ok) changed = a.uids.length;
    }
    return { changed };
  });
}

/** Into the trash; from the trash or spam, for good. */
export async function deleteMessages(client: ImapFlow, a: { folder: Folder; uids: number[] }) {
  const path = await folderPath(client, a.folder);
  const trash = await folderPath(client, 'trash').catch(() => null);
  const spam = await folderPath(client, 'spam').catch(() => null);
  if (trash && path !== trash && path !== spam) {
    const { moved } = await moveMessages(client, { folder: a.folder, uids: a.uids, to: 'trash' });
    return { deleted: moved };
  }
  return inFolder(client, a.folder, async () => {
    const ok = await client.messageDelete(a.uids.join(','), { uid: true });
    return { deleted: ok ? a.uids.length : 0 };
  });
}
