import { OFFLINE, type Row } from './support';

/**
 * The attempt limits (csf/{max-attempts|ssh-max|imap-max|pop-max|smt-max}): read from and
 * written to the server's fail2ban, so everyone who passes the guard and the tenant check gets
 * the offline fixture server's 409 (a team member like the owner, as for the SSH settings).
 */
const KINDS = ['max-attempts', 'ssh-max', 'imap-max', 'pop-max', 'smt-max'];

export const rows: Row[] = KINDS.flatMap((kind): Row[] => [
  { route: `GET /api/v1/csf/${kind}/servers/:sid/users/:uid`, expect: OFFLINE },
  {
    route: `PATCH /api/v1/csf/${kind}/servers/:sid/users/:uid`,
    body: () => ({ value: 5 }),
    expect: OFFLINE,
  },
]);
