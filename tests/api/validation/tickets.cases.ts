import type { TestApp } from '../helpers';
import type { Case } from '../validation.test';

const anything = /./;

/** A ticket of the user's: the request hook loads `{id}` through `{uid}` before the body. */
const ticket = async ({ t, uid }: { t: TestApp; uid: number }) => ({
  id: await t.app.services.tickets.open(
    uid,
    { subject: 'Validation', priority: 'normal', server_id: null },
    { authorId: uid, fromStaff: false, body: 'help' },
    [],
  ),
});
const png = (name: string, data: string) => ({ name, type: 'image/png', data });

/** Bad input on the support ticket routes: every 400 names its fields. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/supportcs/tickets/users/:uid',
    as: 'user',
    query: '?status=pending&type=phone&sort=email',
    errors: { status: anything, type: anything, sort: anything },
  },
  {
    route: 'POST /api/v1/supportcs/users/:uid',
    as: 'user',
    body: {},
    errors: { subject: 'Required', message: 'Required' },
  },
  {
    route: 'POST /api/v1/supportcs/users/:uid',
    as: 'user',
    body: {
      subject: 'ab',
      priority: 'asap',
      server_id: 'web',
      message: '   ',
      attachments: [
        { name: 'x.html', type: 'text/html', data: 'PGI+' },
        png('a.png', 'not base64!'),
        png('b.gif', 'iVBORw0KGgo='),
      ],
    },
    errors: {
      subject: 'At least 3 characters',
      priority: anything,
      server_id: anything,
      message: 'Write a message',
      'attachments.0.type': 'Only PNG, JPEG, GIF, WebP, PDF, TXT and LOG files can be attached',
      'attachments.1.data': 'The file content must be base64',
      'attachments.2.name': 'The file name does not match its type',
    },
  },
  {
    route: 'POST /api/v1/supportcs/ticket/:id/users/:uid',
    as: 'user',
    params: ticket,
    body: { message: '', attachments: Array.from({ length: 6 }, () => png('a.png', 'iVBO')) },
    errors: { message: 'Write a message', attachments: 'At most 5 files a message' },
  },
  {
    route: 'PUT /api/v1/supportcs/updateticket/:id/users/:uid',
    as: 'user',
    params: ticket,
    body: { status: 'answered' },
    errors: { status: 'Close or reopen: open or closed' },
  },
];
