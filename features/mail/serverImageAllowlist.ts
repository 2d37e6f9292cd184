/**
 * The remote images the webmail's image proxy may fetch for one message, remembered a minute:
 * "Show images" asks for up to 30 images at once, and each must be an address the message
 * holds, which would otherwise cost the server one IMAP read of the whole message per image.
 * Keyed by server, mailbox, folder, message and reader (never shared between users), kept per
 * panel instance, and bounded: the oldest entry goes first.
 */
const TTL_MS = 60_000;
const MAX_ENTRIES = 500;

export interface ImageMessageKey {
  serverId: number;
  mailboxId: number;
  userId: number;
  folder: string;
  uid: number;
}

interface Entry {
  expires: number;
  urls: Promise<ReadonlySet<string>>;
}

const byApp = new WeakMap<object, Map<string, Entry>>();

function entriesOf(app: object): Map<string, Entry> {
  let entries = byApp.get(app);
  if (!entries) {
    entries = new Map();
    byApp.set(app, entries);
  }
  return entries;
}

/**
 * The message's image addresses: remembered ones while fresh, else `read()` once (requests
 * arriving while it runs wait for the same read). A failed read is forgotten at once.
 */
export function allowedImages(
  app: object,
  key: ImageMessageKey,
  read: () => Promise<readonly string[]>,
): Promise<ReadonlySet<string>> {
  const entries = entriesOf(app);
  const id = JSON.stringify([key.serverId, key.mailboxId, key.userId, key.folder, key.uid]);
  const now = Date.now();
  const known = entries.get(id);
  if (known && known.expires > now) return known.urls;
  entries.delete(id);
  for (const [old, entry] of entries) {
    if (entries.size < MAX_ENTRIES && entry.expires > now) break;
    entries.delete(old);
  }
  const urls = read().then((list) => new Set(list));
  const entry = { expires: now + TTL_MS, urls };
  entries.set(id, entry);
  urls.catch(() => {
    if (entries.get(id) === entry) entries.delete(id);
  });
  return urls;
}
