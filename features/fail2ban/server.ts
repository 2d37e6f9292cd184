import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import type { HandlerContext } from '../../server/http/handlers';
import { defineHandlers } from '../../server/http/handlers';
import { ATTEMPT_KINDS, type AttemptKind, type AttemptLimit, attemptlimits } from './resource';

/**
 * Live like the SSH settings: the server's jail file and fail2ban are the truth (an admin may
 * stop fail2ban or edit by hand; the panel shows what runs), so nothing is stored here, and a
 * server that is offline answers 409 rather than a value it may no longer have.
 */
const read = (kind: AttemptKind) => (ctx: HandlerContext) => readOp(ctx, 'fail2ban.get', { kind });

/** The server's firewall ignore list (CSF's csf.ignore: never blocked for failed logins). */
async function ignoreListOf(ctx: HandlerContext<unknown, unknown>): Promise<string[]> {
  const rows = await ctx.app.db
    .selectFrom('firewall_entries')
    .select('ip')
    .where('server_id', '=', ctx.server.id)
    .where('list', '=', 'csf_ignore')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.ip);
}

/**
 * The ignore list changed (features/firewall): fail2ban's jails are written again with it. An
 * error (the server offline, fail2ban refusing) reaches the caller, which takes its row back.
 */
export async function syncIgnoreList(ctx: HandlerContext<unknown, unknown>, message: string) {
  await runOp(ctx, message, 'fail2ban.ignore', { ignore: await ignoreListOf(ctx) });
}

const change =
  (kind: AttemptKind) =>
  async (ctx: HandlerContext<unknown, Partial<AttemptLimit> | undefined>) => {
    const body = ctx.body ?? {};
    const words = Object.entries(body)
      .map(([key, value]) => `${key} ${String(value)}`)
      .join(', ');
    return runOp(
      ctx,
      `Change the ${ATTEMPT_KINDS[kind]} attempt limit: ${words || 'nothing'}`,
      'fail2ban.set',
      { kind, changes: body, ignore: await ignoreListOf(ctx) },
    );
  };

export const server = defineServerFeature({
  handlers: [
    defineHandlers(attemptlimits, {
      actions: {
        'read_max-attempts': read('max-attempts'),
        'change_max-attempts': change('max-attempts'),
        'read_ssh-max': read('ssh-max'),
        'change_ssh-max': change('ssh-max'),
        'read_imap-max': read('imap-max'),
        'change_imap-max': change('imap-max'),
        'read_pop-max': read('pop-max'),
        'change_pop-max': change('pop-max'),
        'read_smt-max': read('smt-max'),
        'change_smt-max': change('smt-max'),
      },
    }),
  ],
});
