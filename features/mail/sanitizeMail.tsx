/**
 * A received message's HTML made safe to show (research mail.md s.6): DOMPurify removes scripts,
 * event handlers, forms, frames and `javascript:` links; remote content (images, backgrounds,
 * styles from elsewhere) is taken out, because loading it tells the sender when and where the
 * mail was read; links open in a new tab with no referrer. The browser shows the result in a
 * sandboxed frame without scripts, under the panel's CSP, which refuses remote images anyway;
 * images the reader asks for come through the panel's image proxy as data: URLs.
 * The DOMPurify instance is given: the browser's own, or one over jsdom in the unit tests.
 * Browser code (.tsx, as the feature folders' lint wants), not shared with the panel or agent.
 */
import type { DOMPurify } from 'dompurify';

export interface SanitizedMail {
  html: string;
  /** Remote resources taken out (images, backgrounds, stylesheets). */
  blocked: number;
  /** The remote `<img src>` addresses, each once: what "Show images" asks the panel for. */
  images: string[];
}

const REMOTE = /^\s*(https?:)?\/\//i;
/** Attributes that load something by themselves when the message is shown. */
const LOADING = ['src', 'srcset', 'background', 'poster', 'lowsrc', 'dynsrc'];
/** A CSS `url(...)` that is not a data: or cid: one, and `@import`. */
const REMOTE_CSS = /url\(\s*(['"]?)\s*(?!data:|cid:)[^)'"]*\1\s*\)|@import[^;]*;?/gi;

/**
 * `loaded`: remote images the reader asked for, fetched by the panel's image proxy, as data:
 * URLs by their address; they replace their `src`, everything else remote stays out.
 */
export function sanitizeMail(
  purify: DOMPurify,
  html: string,
  loaded: ReadonlyMap<string, string> = new Map(),
): SanitizedMail {
  let blocked = 0;
  const images = new Set<string>();
  const noRemoteCss = (css: string) =>
    css.replace(REMOTE_CSS, () => {
      blocked++;
      return 'none';
    });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const src = node.tagName === 'IMG' ? node.getAttribute('src')?.trim() : undefined;
    if (src && /^https?:\/\//i.test(src)) {
      images.add(src);
      const data = loaded.get(src);
      if (data?.startsWith('data:image/')) node.setAttribute('src', data);
    }
    for (const name of LOADING) {
      const value = node.getAttribute(name);
      if (value !== null && (REMOTE.test(value) || name === 'srcset')) {
        node.removeAttribute(name);
        blocked++;
      }
    }
    const style = node.getAttribute('style');
    if (style) node.setAttribute('style', noRemoteCss(style));
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent)
      node.textContent = noRemoteCss(node.textContent);
  });
  try {
    const clean = purify.sanitize(html, {
      FORBID_TAGS: ['form', 'input', 'button', 'select', 'textarea', 'base', 'link', 'meta'],
      FORBID_ATTR: ['action', 'formaction', 'ping'],
      ADD_ATTR: ['target'],
      WHOLE_DOCUMENT: false,
      FORCE_BODY: true,
    });
    return { html: String(clean), blocked, images: [...images] };
  } finally {
    purify.removeAllHooks();
  }
}

/** The frame's document: the clean HTML under a CSP of its own that loads nothing remote. */
export function mailDocument(clean: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; ' +
    "style-src 'unsafe-inline'; img-src data:; font-src data:\">" +
    '<style>body{margin:0;font-family:sans-serif;overflow-wrap:anywhere}img{max-width:100%}</style>' +
    `</head><body>${clean}</body></html>`
  );
}
