/**
 * The events the panel itself raises (servers, users, team members: not feature folders), with
 * their phases and payloads; the features subscribe to them in their own folders.
 */
import type { UserUpdate } from '../../resources/user-profile';
import type { ServerRow, UserPatch, UserRow } from '../db/schema';
import type { Caller } from '../http/caller';
import type { HandlerContext } from '../http/handlers';
import type { After, Before, EventDeclarations } from './types';

declare module './types' {
  interface PanelEvents {
    /**
     * `DELETE servers/{sid}`, or the deletion of its owner's account, before its agent is asked
     * to remove itself and the row goes (with every row under it, by cascade): what a feature
     * keeps of the server outside its rows goes now. A subscriber's error keeps the server, and
     * is the answer.
     */
    'server.removing': Before<{ server: ServerRow }>;
    /**
     * `POST servers/users/{uid}?action=create`, inside the transaction that then writes the new
     * server's row for `userId` (subscribers read with the context's `db`, the transaction): a
     * feature that limits it refuses with an HttpError, which is the answer (features/plans:
     * the plan's server limit). Nothing is written then.
     */
    'server.creating': Before<{ userId: number; caller: Caller | null }>;
    /**
     * A transfer was accepted: raised inside its transaction, once the row names the new owner
     * (`to`), so subscribers write with the context's `db` (the transaction): what tied the
     * server to its former owner (`from`) is undone — their teams' shares (features/teams). A
     * subscriber's error rolls the transfer back.
     */
    'server.transferred': Before<{ server: ServerRow; from: number; to: number }>;
    /**
     * A transfer was accepted and committed (`caller` is the new owner): the former owner and
     * their teams' members lost the server, and what they hold on it goes (their SSH keys,
     * features/sshkeys). Awaited before the answer; errors are logged.
     */
    'server.handed-over': After<{ server: ServerRow; caller: Caller }>;
    /**
     * A server's agent connected (each connection, once its row says so), before the rows
     * written while it was offline are applied: what waited for the server goes now (keys of
     * users who lost it meanwhile, features/sshkeys). Errors are logged.
     */
    'server.agent-connected': After<{ serverId: number }>;
    /**
     * `DELETE users/{uid}`, once the holder proved it is them, before their sessions end and the
     * row goes (with every row of theirs, by cascade): what a feature keeps of the user outside
     * the database goes now (their tickets' attachments, features/tickets). A subscriber's error
     * keeps the account, and is the answer.
     */
    'user.deleting': Before<{ user: { id: number; email: string } }>;
    /**
     * `DELETE users/{uid}` deleted the row (and its own servers): what the user held on others'
     * servers goes (the SSH keys they added as a team member, features/sshkeys). Awaited before
     * the answer; errors are logged.
     */
    'user.deleted': After<{ user: { id: number; email: string } }>;
    /**
     * `PUT users/{uid}`, before the row is written: the features that own fields of the body
     * (features/account-security: the password and two-factor sign-in) check them, add their
     * column changes to `patch` and the account's activity lines to `messages`. A subscriber's
     * error writes nothing, and is the answer.
     */
    'user.updating': Before<{
      ctx: HandlerContext<unknown, UserUpdate>;
      user: UserRow;
      patch: UserPatch;
      messages: string[];
    }>;
    /**
     * `PUT users/{uid}` wrote the row (`user`, as written): what follows a change goes now (a new
     * password ends the other sessions, features/account-security). Awaited before the answer, and
     * a subscriber's error is the answer (the row stays written).
     */
    'user.updated': Before<{ ctx: HandlerContext<unknown, UserUpdate>; user: UserRow }>;
    /**
     * `POST register`, before anything is looked up or written: the address asked for and the
     * user whose link (`?ref=`) was followed, if any. A subscriber's error refuses the
     * registration and is the answer (features/referrals refuses a self-referral).
     */
    'user.registering': Before<{ email: string; referrer: { id: number; email: string } | null }>;
    /**
     * A member left a team or its owner removed them (committed): `serverIds` are the team's
     * shared servers, which the member may no longer reach (the panel takes their SSH keys off
     * and closes their live views itself). Errors are logged.
     */
    'team.member-removed': After<{
      team: { id: number; name: string };
      userId: number;
      serverIds: number[];
    }>;
  }
}

export const panelEvents: EventDeclarations = {
  'server.removing': 'before',
  'server.creating': 'before',
  'server.transferred': 'before',
  'server.handed-over': 'after',
  'server.agent-connected': 'after',
  'user.deleting': 'before',
  'user.deleted': 'after',
  'user.updating': 'before',
  'user.updated': 'before',
  'user.registering': 'before',
  'team.member-removed': 'after',
  /** Declared in server/tasks/taskEvents.ts, beside the code raising it. */
  'task.failed': 'after',
};
