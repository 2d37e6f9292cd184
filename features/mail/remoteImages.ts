/**
 * The remote images of a received message's HTML, as the panel sees them: the addresses its
 * image proxy may fetch for the webmail's "Show images" (only images of the message itself,
 * so the proxy is no open relay). Pure: the panel's handler and the tests use it.
 */

const IMG_SRC = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute value as the browser's parser reads it (the entities mail uses in URLs). */
function decode(value: string): string {
  return value.replace(ENTITY, (_, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return NAMED[lower] ?? '';
  });
}

/** How many of a message's images the page asks for, at most. */
export const MAX_REMOTE_IMAGES = 30;

/** The http(s) addresses of the message's `<img src>`, each once, in order. */
export function remoteImagesOf(html: string | null): string[] {
  const found = new Set<string>();
  for (const match of (html ?? '').matchAll(IMG_SRC)) {
    const url = decode((match[1] ?? match[2] ?? match[3] ?? '').trim());
    if (/^https?:\/\//i.test(url)) found.add(url);
  }
  return [...found];
}
