/**
 * Mailboxes of one domain put on their server in rounds (serverRounds.ts): the lines asked for
 * while a call is on its way go together in the next `mail.mailbox.set-many`, with the domain's
 * forward set as the database holds it when that round starts, so a round is one agent call
 * and one rebuild of the maps.
 */
import type { z } from 'zod';
import { AgentOpError } from '../../server/agents/hub';
import type { Db } from '../../server/db/database';
import type { OpCall } from '../../server/managed/kind';
import type { mailboxLine } from './ops';
import { forwardSet } from './serverForwardSet';
import { type RoundOutcome, Rounds } from './serverRounds';

type MailboxLine = z.infer<typeof mailboxLine>;

// Per panel database: two panels in one process (the tests) never share a round.
const byDb = new WeakMap<Db, Rounds<MailboxLine>>();

const distinct = (values: readonly unknown[]) => new Set(values).size === values.length;

/** The field a lone line's error names: `local`, as its request has it, not `mailboxes.local`. */
function asOwn(error: unknown): unknown {
  if (!(error instanceof AgentOpError) || !error.field?.startsWith('mailboxes.')) return error;
  return new AgentOpError(error.message, error.code, error.field.slice('mailboxes.'.length));
}

interface Round {
  op: OpCall;
  db: Db;
  serverId: number;
  domain: string;
}

async function putLines(round: Round, lines: MailboxLine[]): Promise<void> {
  const forwards = await forwardSet(round.db, round.serverId, round.domain);
  await round.op('mail.mailbox.set-many', { domain: round.domain, mailboxes: lines, forwards });
}

/** One call for the round; when the server refuses it, each line alone, so each hears its own answer. */
async function putRound(round: Round, lines: MailboxLine[]): Promise<RoundOutcome[]> {
  if (lines.length > 1 && distinct(lines.map((l) => l.local)) && distinct(lines.map((l) => l.id))) {
    try {
      await putLines(round, lines);
      return lines.map(() => undefined);
    } catch (error) {
      // Offline or no answer: every line waits for the sweeper alike.
      if (!(error instanceof AgentOpError)) throw error;
    }
  }
  const outcomes: RoundOutcome[] = [];
  for (const line of lines)
    outcomes.push(await putLines(round, [line]).then(() => undefined, asOwn));
  return outcomes;
}

/** The mailbox's line on its server, with the domain's forwards as the database holds them. */
export async function putMailbox(round: Round, line: MailboxLine): Promise<void> {
  let rounds = byDb.get(round.db);
  if (!rounds) byDb.set(round.db, (rounds = new Rounds()));
  await rounds.run(`${round.serverId}:${round.domain}`, line, (lines) => putRound(round, lines));
}
