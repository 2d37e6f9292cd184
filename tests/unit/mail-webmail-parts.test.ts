import type { FetchMessageObject } from 'imapflow';
import { describe, expect, it } from 'vitest';
import { attachmentsOf, summaryOf } from '../../features/mail/agentWebmail';
import { folderName, outgoingMessage } from '../../features/mail/webmailOps';

type Structure = NonNullable<FetchMessageObject['bodyStructure']>;

const text: Structure = { part: '1', type: 'text/plain', size: 120 };
const html: Structure = { part: '2', type: 'text/html', size: 300 };

describe('what the webmail calls attachments', () => {
  it('lists parts marked attachment, and named files that are not inline', () => {
    const message: Structure = {
      type: 'multipart/mixed',
      childNodes: [
        { type: 'multipart/alternative', part: '1', childNodes: [text, html] },
        {
          part: '2',
          type: 'application/pdf',
          size: 5000,
          disposition: 'attachment',
          dispositionParameters: { filename: 'invoice.pdf' },
        },
        { part: '3', type: 'image/png', size: 80, parameters: { name: 'chart.png' } },
        {
          part: '4',
          type: 'image/png',
          size: 90,
          disposition: 'inline',
          parameters: { name: 'logo.png' },
        },
      ],
    };
    expect(attachmentsOf(message)).toEqual([
      { part: '2', filename: 'invoice.pdf', content_type: 'application/pdf', size: 5000 },
      { part: '3', filename: 'chart.png', content_type: 'image/png', size: 80 },
    ]);
  });

  it('a plain message has none', () => {
    expect(attachmentsOf(text)).toEqual([]);
    expect(attachmentsOf(undefined)).toEqual([]);
  });
});

describe('a message in a list', () => {
  it('reads envelope and flags as the page shows them', () => {
    const m = {
      seq: 7,
      uid: 42,
      size: 2048,
      flags: new Set(['\\Seen', '\\Flagged']),
      envelope: {
        subject: 'Quarterly numbers',
        date: new Date('2026-11-20T08:30:00Z'),
        from: [{ name: 'Bob', address: 'bob@example.test' }],
        to: [{ address: 'alice@example.test' }],
      },
      bodyStructure: text,
    } as FetchMessageObject;
    expect(summaryOf(m)).toEqual({
      uid: 42,
      subject: 'Quarterly numbers',
      from: [{ name: 'Bob', address: 'bob@example.test' }],
      to: [{ name: '', address: 'alice@example.test' }],
      date: '2026-11-20T08:30:00.000Z',
      size: 2048,
      seen: true,
      flagged: true,
      answered: false,
      has_attachments: false,
    });
  });
});

describe('webmail input', () => {
  it('takes the special folders and plain folder names, nothing that climbs', () => {
    expect(folderName.parse('sent')).toBe('sent');
    expect(folderName.parse('Projects/2026')).toBe('Projects/2026');
    for (const bad of ['../other', 'a/../b', '/abs', 'a\nb', ''])
      expect(folderName.safeParse(bad).success, bad).toBe(false);
  });

  it('refuses a header broken over lines and a bad recipient', () => {
    const base = { to: ['bob@example.test'], subject: 'Hi', text: 'Hello' };
    expect(outgoingMessage.safeParse(base).success).toBe(true);
    expect(outgoingMessage.safeParse({ ...base, subject: 'Hi\r\nBcc: x@y.test' }).success).toBe(
      false,
    );
    expect(outgoingMessage.safeParse({ ...base, to: ['not an address'] }).success).toBe(false);
    const named = outgoingMessage.safeParse({
      ...base,
      attachments: [{ filename: '../etc/passwd', content_type: 'text/plain', content: '' }],
    });
    expect(named.success).toBe(false);
  });
});
