import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { remoteImagesOf } from '../../features/mail/remoteImages';
import { mailDocument, sanitizeMail } from '../../features/mail/sanitizeMail';

/**
 * A received message's HTML as the webmail shows it: DOMPurify over jsdom here (the browser's
 * own DOM in the panel), the same function. What a hostile or tracking mail carries must be gone.
 */
const purify = createDOMPurify(new JSDOM('').window);
const clean = (html: string) => sanitizeMail(purify, html);

describe('a message shown in the webmail', () => {
  it('loses scripts, handlers, forms and javascript: links, keeps the text and plain links', () => {
    const { html } = clean(
      '<p onclick="steal()">Hi <b>there</b></p><script>steal()</script>' +
        '<a href="javascript:steal()">x</a><a href="https://shop.example/">shop</a>' +
        '<form action="https://evil.example"><input name="pw"><button>Go</button></form>' +
        '<iframe src="https://evil.example"></iframe><svg><script>steal()</script></svg>',
    );
    expect(html).toContain('Hi <b>there</b>');
    expect(html).not.toMatch(/script|onclick|javascript:|<form|<input|<iframe|evil\.example/i);
    expect(html).toContain(
      '<a href="https://shop.example/" target="_blank" rel="noopener noreferrer">shop</a>',
    );
  });

  it('takes out remote images, backgrounds and stylesheets, and counts them', () => {
    const { html, blocked } = clean(
      '<img src="https://tracker.example/open.gif?u=1" alt="logo">' +
        '<img src="//cdn.example/a.png" srcset="https://cdn.example/b.png 2x">' +
        '<table background="http://tracker.example/bg.png"><tr><td>x</td></tr></table>' +
        '<div style="background:url(https://tracker.example/c.png);color:red">y</div>' +
        '<style>@import url(https://evil.example/x.css); p { background: url("https://t.example/d.png") }</style>' +
        '<link rel="stylesheet" href="https://evil.example/y.css">',
    );
    expect(html).not.toMatch(/tracker\.example|cdn\.example|evil\.example|t\.example/);
    expect(html).toContain('alt="logo"');
    expect(html).toContain('color:red');
    expect(blocked).toBe(7);
  });

  it('keeps images carried in the message itself (data: URLs)', () => {
    const dot = 'data:image/png;base64,iVBORw0KGgo=';
    const { html, blocked } = clean(`<img src="${dot}" alt="dot">`);
    expect(html).toContain(`src="${dot}"`);
    expect(blocked).toBe(0);
  });

  it('frames it in a document whose own policy loads nothing remote and runs nothing', () => {
    const doc = mailDocument('<p>Hi</p>');
    expect(doc).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:"`,
    );
    expect(doc).toContain('<body><p>Hi</p></body>');
  });

  it('leaves no hook behind: the next message is counted from zero', () => {
    clean('<img src="https://tracker.example/a.gif">');
    expect(clean('<p>plain</p>')).toEqual({ html: '<p>plain</p>', blocked: 0, images: [] });
  });
  it('lists the remote images, and shows those the reader asked for as the panel fetched them', () => {
    const html =
      '<p><img src="https://cdn.example/a.png?x=1&amp;y=2"><img src="https://cdn.example/a.png?x=1&amp;y=2">' +
      '<img src="https://cdn.example/b.png"><img src="https://cdn.example/c.png"></p>' +
      '<div style="background:url(https://tracker.example/c.png)">z</div>';
    const first = clean(html);
    expect(first.images).toEqual([
      'https://cdn.example/a.png?x=1&y=2',
      'https://cdn.example/b.png',
      'https://cdn.example/c.png',
    ]);
    // The panel reads the same addresses out of the message it fetches again.
    expect(remoteImagesOf(html)).toEqual(first.images);
    const pixel = 'data:image/png;base64,iVBORw0KGgo=';
    const shown = sanitizeMail(
      purify,
      html,
      new Map([
        ['https://cdn.example/a.png?x=1&y=2', pixel],
        // Only images come in: anything else a map might hold stays out.
        ['https://cdn.example/b.png', 'data:text/html;base64,PGI+eDwvYj4='],
      ]),
    );
    expect(shown.html.match(/src="data:image\/png;base64,iVBORw0KGgo="/g)).toHaveLength(2);
    expect(shown.html).not.toMatch(/cdn\.example|tracker\.example|text\/html/);
    // b and c (not loaded) and the background are still out.
    expect(shown.blocked).toBe(3);
  });
});
