/**
 * The events the panel itself raises (servers, users, team members: not feature folders), with
 * their phases and payloads; the features subscribe to them in their own folders.
 */
import type { ServerRow } from '../db/schema';
import type { HandlerContext } from '../http/handlers';
import type { After, Before, EventDeclarations } from './types';

declare module './types' {
  interface PanelEvents {
    /**
     * `DELETE servers/{sid}`, before its agent is asked to remove itself and the row goes (with
     * every row under it, by cascade): what a feature keeps of the server outside its rows goes
     * now. A subscriber's error keeps the server, and is the answer.
     */
    'server.removing': Before<{ ctx: HandlerContext; server: ServerRow }>;
    /**
     * A transfer was accepted: raised inside its transaction, once the row names the new owner
     * (`to`), so subscribers write with the context's `db` (the transaction): what tied the
     * server to its former owner (`from`) is undone — their teams' shares (features/teams). A
     * subscriber's error rolls the transfer back.
     */
    'server.transferred': Before<{ server: ServerRow; from: number; to: number }>;
    /**
     * `DELETE users/{uid}`, once the holder proved it is them, before their sessions end and the
     * row goes (with every row of theirs, by cascade): what a feature keeps of the user outside
     * the database goes now (their tickets' attachments, features/tickets). A subscriber's error
     * keeps the account, and is the answer.
     */
    'user.deleting': Before<{ user: { id: number; email: string } }>;
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
  'server.transferred': 'before',
  'user.deleting': 'before',
  'team.member-removed': 'after',
  /** Declared in server/tasks/taskEvents.ts, beside the code raising it. */
  'task.failed': 'after',
};
