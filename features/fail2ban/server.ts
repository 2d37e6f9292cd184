import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { HttpError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { defineHandlers } from '../../server/http/handlers';
import {
  ATTEMPT_KINDS,
  type AttemptKind,
  type AttemptLimit,
  type AttemptState,
  attemptlimits,
} from './resource';

/**
 * Live like the SSH settings: the server's jail file and fail2ban are the truth (an admin may
 * stop fail2ban or edit by hand; the panel shows what runs), so nothing is stored here, and a
 * server that is offline answers 409 rather than a value it may no longer have.
 *
 * The five kinds are read together: one agent op answers them all, and the GETs of one server
 * share it while it runs and for REUSE_MS after (the security card asks for the five at once,
 * and each fail2ban-client call on the server costs a Python start). Any change through the
 * panel drops the shared read, so the next GET reads the server again; a failed read is not
 * kept. Per app instance: tests run several panels in one process.
 */
export const REUSE_MS = 2000;
interface SharedRead {
  states: Promise<AttemptState[]>;
  /** Reused until then; in flight, forever. */
  until: number;
}
const shared = new WeakMap<object, Map<number, SharedRead>>();
const readsOf = (ctx: HandlerContext<unknown, unknown>) => {
  let reads = shared.get(ctx.app);
  if (!reads) shared.set(ctx.app, (reads = new Map()));
  return reads;
};

async function readAll(ctx: HandlerContext<unknown, unknown>): Promise<AttemptState[]> {
  const reads = readsOf(ctx);
  const id = ctx.server.id;
  const now = reads.get(id);
  // A finished read is reused only while the server is still connected (offline answers 409).
  const reuse =
    now !== undefined &&
    now.until > Date.now() &&
    (now.until === Infinity || (await ctx.app.agents.isOnline(id)));
  if (reuse && reads.get(id) === now) return now.states;
  const entry: SharedRead = { states: readOp(ctx, 'fail2ban.list', {}), until: Infinity };
  reads.set(id, entry);
  void entry.states.then(
    () => {
      entry.until = Date.now() + REUSE_MS;
    },
    () => {
      if (reads.get(id) === entry) reads.delete(id);
    },
  );
  return entry.states;
}

/** A change through the panel: the next read asks the server again. */
const forget = (ctx: HandlerContext<unknown, unknown>) => readsOf(ctx).delete(ctx.server.id);

const read = (kind: AttemptKind) => async (ctx: HandlerContext) => {
  const state = (await readAll(ctx)).find((s) => s.kind === kind);
  if (!state) throw new HttpError(502, `The server's agent did not answer the ${kind} limit`);
  return state;
};

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
  try {
    await runOp(ctx, message, 'fail2ban.ignore', { ignore: await ignoreListOf(ctx) });
  } finally {
    forget(ctx);
  }
}

const change =
  (kind: AttemptKind) =>
  async (ctx: HandlerContext<unknown, Partial<AttemptLimit> | undefined>) => {
    const body = ctx.body ?? {};
    const words = Object.entries(body)
      .map(([key, value]) => `${key} ${String(value)}`)
      .join(', ');
    try {
      return await runOp(
        ctx,
        `Change the ${ATTEMPT_KINDS[kind]} attempt limit: ${words || 'nothing'}`,
        'fail2ban.set',
        { kind, changes: body, ignore: await ignoreListOf(ctx) },
      );
    } finally {
      forget(ctx);
    }
  };

export const server = defineServerFeature({
  on: {
    /** The firewall's ignore list changed: the jails are written again with it. */
    'firewall.ignore-changed': ({ ctx, message }) => syncIgnoreList(ctx, message),
  },
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
