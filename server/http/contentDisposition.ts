/**
 * `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266); no quotes or breaks.
 * Shared by every download the panel serves (ticket attachments, the file manager).
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;/]/g, '_').slice(0, 200) || 'attachment';
  const utf8 = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}
